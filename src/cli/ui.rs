//! Terminal concerns, decided once per run: colour, width, and how warnings are printed; and
//! how ids and paths are shortened in rows.

use std::borrow::Cow;
use std::io::IsTerminal;

use sesstree::terminal::sanitize_for_terminal;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is not set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

pub use sesstree::render::width::{columns, fit};
pub use sesstree::render::{Role, Style, short_id};

/// Resolves `--color` against the environment: the flag, then NO_COLOR, then CLICOLOR_FORCE /
/// FORCE_COLOR, then `TERM=dumb`, then whether stdout is a terminal.
pub fn resolve_style(choice: ColorChoice) -> Style {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    let color = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
            !set("NO_COLOR")
                && (set("CLICOLOR_FORCE")
                    || set("FORCE_COLOR")
                    || (!dumb && std::io::stdout().is_terminal()))
        }
    };
    Style { color }
}

/// The terminal's width, when standard output was one as the command started (before the
/// pager took it over: the pager shows the rows on that terminal).
static TERMINAL_WIDTH: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();

/// Notes the terminal's width when standard output is a terminal; call before the pager starts.
pub fn note_terminal_width() {
    let width = std::io::stdout()
        .is_terminal()
        .then(crossterm::terminal::size)
        .and_then(Result::ok)
        .map(|(columns, _)| usize::from(columns));
    let _ = TERMINAL_WIDTH.set(width.filter(|&w| w > 0));
}

/// The width to fit rows into: `COLUMNS` when set, else the terminal's when standard output is
/// one (also through the pager); in a pipe or a file, none: rows are not cut.
pub fn width() -> Option<usize> {
    let columns = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).filter(|&w| w > 0);
    columns.or_else(|| TERMINAL_WIDTH.get().copied().flatten())
}

/// Text from a session file (an id, a label, a name, a message) as it may be printed in text
/// output, on stdout or stderr: every control character escaped (SPEC §3), so a hostile file
/// cannot drive the terminal. Everything read from the file goes through this before it is
/// printed as text; JSON output needs nothing, and the editor prefill has its own rule.
pub fn show(text: &str) -> Cow<'_, str> {
    sanitize_for_terminal(text)
}

/// Prints a warning about a line of a file, as `FILE:LINE: warning: MESSAGE`, for each
/// `(line, message)`, through one buffered lock on stderr: a damaged file can have a warning
/// on every line, and a write for each piece of each of them took 34 s for a file of 8 million
/// entries without ids.
pub fn warn_lines<'m>(path: &std::path::Path, warnings: impl IntoIterator<Item = (u64, &'m str)>) {
    use std::io::Write as _;
    // The path too: `stats DIR` and `fsck DIR` find files by name, and a name can hold escape
    // sequences.
    let path = path.display().to_string();
    let path = show(&path);
    let mut err = std::io::BufWriter::new(std::io::stderr().lock());
    for (line, message) in warnings {
        // A closed stderr leaves nobody to warn.
        if writeln!(err, "{path}:{line}: warning: {}", show(message)).is_err() {
            return;
        }
    }
    let _ = err.flush();
}

/// The user's home directory, for shortening paths in tool rows.
pub fn home() -> Option<String> {
    sesstree::discover::home_dir().and_then(|h| h.into_os_string().into_string().ok())
}

/// An id (or a label) as rows show it: a string as it is, another value as its JSON text.
pub fn id_text(id: &serde_json::Value) -> String {
    id.as_str().map_or_else(|| id.to_string(), str::to_owned)
}

/// `1 root`, `2 roots`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
