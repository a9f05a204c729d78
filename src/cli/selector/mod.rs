//! `sesstree tree -i`: the agent's tree selector (FORMAT §9) as a full-screen terminal UI.
//!
//! `model` turns a session into rows, `state` is the key-driven state machine and `draw` paints
//! it with ratatui; this file owns the terminal (raw mode, alternate screen, restoring it on
//! every way out, a panic included) and the event loop. Writing to the file is not done here:
//! the selector labels or checks out an entry through [`super::write`], as the `label` and
//! `checkout` commands do, so that what they check, write, run and print is exactly what
//! `sesstree label` and `sesstree checkout` do.

pub mod draw;
pub mod model;
pub mod state;
#[cfg(test)]
mod tests;

use std::io::{Stdout, Write};
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{
    self, Event, KeyCode, KeyEventKind, KeyboardEnhancementFlags, PopKeyboardEnhancementFlags,
    PushKeyboardEnhancementFlags,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use sesstree::Session;
use sesstree::ops::checkout::{self, SummarySource};
use sesstree::ops::label::normalize;
use sesstree::process::CancelToken;
use sesstree::row::text::FilterMode;
use sesstree::summarize;

use self::draw::{Look, rows_shown};
use self::model::Model;
use self::state::{Effect, Selector};
use super::Ctx;
use super::args::HookArgs;
use super::exit::{Exit, Silent, classify};
use super::fault;
use super::write::{self, CheckoutRequest, LabelRequest};

/// The summary asked for with Shift+Enter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SummaryRequest {
    /// The summary text the user typed (`checkout --summary TEXT`).
    Text(String),
    /// Ask the summarizer (`checkout --summarize`).
    Summarize,
}

/// How the selector starts.
#[derive(Debug, Clone)]
pub struct Options {
    /// The initial filter (`--filter`).
    pub filter: FilterMode,
    /// The initial search (`--search`).
    pub query: String,
    /// Show archived subtrees from the start (`--include-archived`).
    pub show_archived: bool,
    /// The selector's order (`--order active`) or the file's.
    pub active_first: bool,
    /// Colours and glyphs.
    pub look: Look,
    /// The home directory, for shortening paths in tool rows.
    pub home: Option<String>,
    /// The hooks a checkout fires.
    pub hooks: HookArgs,
    /// The summarizer command of a checkout with `--summarize` (Shift+Enter).
    pub summarizer: Option<String>,
}

/// Runs the selector over a loaded session until it is closed: by Esc, by a checkout, or by
/// Ctrl-C, which fails silently with exit status 7 (cancelled). The session is kept for the
/// preview (Tab), which reads the selected entry whole.
pub fn run(ctx: &Ctx, mut session: Session, opts: Options) -> anyhow::Result<()> {
    let path: PathBuf = session.path.clone();
    let home = opts.home.as_deref();
    let model = Model::build(&session, home, opts.show_archived, opts.active_first)?;
    let mut sel = Selector::new(model, opts.filter, opts.query.clone(), opts.show_archived);
    // The file read again, and its rows put in place of the old ones (both or neither).
    let reload = |sel: &mut Selector, session: &mut Session| -> anyhow::Result<()> {
        let loaded = Session::load(&path)?;
        sel.replace_model(Model::build(&loaded, home, sel.show_archived, opts.active_first)?);
        *session = loaded;
        Ok(())
    };

    let mut tui = Tui::enter()?;
    loop {
        let size = tui.terminal.size()?;
        sel.page = rows_shown(&sel, &opts.look, size.width, size.height);
        refresh_preview(&mut sel, &session);
        tui.terminal.draw(|f| draw::draw(f, &sel, &opts.look))?;
        let key = match event::read()? {
            Event::Key(key) if key.kind != KeyEventKind::Release => key,
            _ => continue,
        };
        if let KeyCode::Char(c) = key.code
            && fault::panic_on_key(c)
        {
            panic!("test panic on key {c:?}");
        }
        match sel.handle(key) {
            Effect::None => {}
            Effect::Quit => return Ok(()),
            Effect::Interrupt => anyhow::bail!(Silent(Exit::Cancelled)),
            Effect::Rebuild => {
                if let Err(e) = reload(&mut sel, &mut session) {
                    sel.message = Some(format!("error: {e:#}"));
                }
            }
            // The commands run with the terminal given back (normal screen, cooked mode), so
            // whatever they print, their hooks and the summarizer stays readable, and a Ctrl-C
            // while a hook or the summarizer runs is the command's to handle.
            Effect::SetLabel { id, label } => {
                restore();
                let text = normalize(label.as_deref());
                let request = LabelRequest {
                    rev: id.as_str(),
                    label: text.as_deref(),
                    force: false,
                    dialect: None,
                    dry_run: false,
                };
                // The selector goes on: the session loaded for the label is freed, not left to
                // the exit.
                let done = write::label(ctx, request).map(drop);
                tui.resume()?;
                sel.message = Some(match done.and_then(|()| reload(&mut sel, &mut session)) {
                    Ok(()) if label.is_some() => "Label set".into(),
                    Ok(()) => "Label removed".into(),
                    Err(e) => format!("error: {e:#}"),
                });
            }
            Effect::Checkout { id, summary } => {
                // On the normal screen, a successful checkout leaves what it printed (the
                // editor text, what was appended) where the user can read it.
                restore();
                // Once it is done (or found nothing to do), the selector closes; after a cancel
                // (exit status 7), nothing was written and it stays open.
                sel.message = Some(match check_out(ctx, id.as_str(), summary, &opts) {
                    Ok(()) => return Ok(()),
                    // A hook's cancel or a Ctrl-C while summarizing: nothing was written, and
                    // the tree comes back, as the agent's selector reopens (FORMAT §6.5).
                    Err(e) if classify(&e).0 == Exit::Cancelled => {
                        format!("Navigation cancelled: {e:#}")
                    }
                    Err(e) => format!("error: {e:#}"),
                });
                tui.resume()?;
                // A file that no longer loads keeps the rows as they were.
                let _ = reload(&mut sel, &mut session);
            }
        }
    }
}

/// Checks out `rev` as `sesstree checkout` does, with the summary asked for with Shift+Enter.
fn check_out(
    ctx: &Ctx,
    rev: &str,
    summary: Option<SummaryRequest>,
    opts: &Options,
) -> anyhow::Result<()> {
    let cancel = CancelToken::default();
    let hooks = opts.hooks.hooks(&cancel, checkout::HOOK_EVENTS);
    let summary = match summary {
        Some(SummaryRequest::Text(text)) => SummarySource::Given(text),
        Some(SummaryRequest::Summarize) => SummarySource::Summarize {
            summarizer: opts.summarizer.clone(),
            instructions: summarize::instructions(None, false),
        },
        None => SummarySource::None,
    };
    let request = CheckoutRequest {
        rev,
        summary,
        label: None,
        dialect: None,
        dry_run: false,
        hooks: &hooks,
        cancel: &cancel,
    };
    write::checkout(ctx, request)
}

/// Reads the selected entry whole for the preview (Tab), as `show` prints it, while it is on.
pub(crate) fn refresh_preview(sel: &mut Selector, session: &Session) {
    sel.preview_text = sel.preview.then(|| sel.selected()).flatten().map(|row| {
        let idx = sel.model.rows[row].idx;
        let plain = crate::cli::ui::Style { color: false };
        crate::cli::readable(plain, session, idx).unwrap_or_else(|e| format!("error: {e:#}"))
    });
}

/// Whether the terminal is in the selector's state; read by the panic hook.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Whether keyboard enhancement flags were pushed and must be popped.
static ENHANCED: AtomicBool = AtomicBool::new(false);

/// The terminal while the selector owns it; dropping it gives the terminal back.
struct Tui {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Tui {
    fn enter() -> anyhow::Result<Tui> {
        install_panic_hook();
        // SIGTERM or SIGHUP must not leave the shell in raw mode (see `leave_on_signal`).
        crate::cli::signals::leave_first_on_signal(leave_on_signal);
        let terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
        let mut tui = Tui { terminal };
        tui.resume()?;
        Ok(tui)
    }

    /// Raw mode and the alternate screen; Ctrl-C arrives as a key from here on.
    fn resume(&mut self) -> anyhow::Result<()> {
        enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = std::io::stdout();
        execute!(out, EnterAlternateScreen, cursor::Hide)?;
        // Where the terminal can tell Shift+Enter from Enter (kitty keyboard protocol), ask it
        // to; elsewhere Alt+Enter stands in.
        if crossterm::terminal::supports_keyboard_enhancement().unwrap_or(false)
            && execute!(
                out,
                PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES)
            )
            .is_ok()
        {
            ENHANCED.store(true, Ordering::SeqCst);
        }
        self.terminal.clear()?;
        Ok(())
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        restore();
    }
}

/// Gives the terminal back: keyboard flags, alternate screen, cursor, raw mode. Safe to call
/// more than once (only the first call after entering does anything).
fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = std::io::stdout();
    if ENHANCED.swap(false, Ordering::SeqCst) {
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
    let _ = disable_raw_mode();
}

/// Called on SIGINT, SIGTERM or SIGHUP (from the handler's own thread): while the selector owns
/// the terminal, gives it back and exits with status 7 (cancelled), as Ctrl-C does. Nothing is
/// being written then: the selector gives the terminal back before it runs a command.
fn leave_on_signal() {
    if ACTIVE.load(Ordering::SeqCst) {
        restore();
        std::process::exit(Exit::Cancelled as i32);
    }
}

/// Restores the terminal before a panic message is printed, so the message is readable and
/// the shell is usable afterwards.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}
