//! The man pages: `sesstree.1` and one `sesstree-<command>.1` per subcommand, rendered from the
//! same clap definitions as `--help`, plus the sections clap does not know about (EXIT STATUS,
//! ENVIRONMENT, FILES, EXAMPLES, SEE ALSO).
//!
//! clap_mangen renders NAME, SYNOPSIS, DESCRIPTION (the long help), OPTIONS and the list of
//! subcommands. The examples come from the "Examples:" block of each command's
//! `after_long_help` (where `--help` shows them after the options). In the block, a line ending
//! with a colon describes the command lines that follow it.

use std::path::Path;

use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, italic, roman};

use super::exit::EXIT_STATUS;

/// The environment variables sesstree reads, for the ENVIRONMENT section of every page.
const ENVIRONMENT: &[(&str, &str)] = &[
    ("SESSTREE_FILE", "The session file, when -f/--file is not given (empty counts as unset)."),
    (
        "SESSTREE_SUMMARIZER",
        "The summarizer command (the \"active model\") used by checkout --summarize when \
         --summarizer is not given. It reads the abandoned entries and the instructions on \
         standard input and prints the summary. Empty counts as unset.",
    ),
    ("XDG_CONFIG_HOME", "Where the hooks directory lives (default ~/.config); see FILES."),
    (
        "NO_COLOR",
        "When set and not empty, --color auto never colours. CLICOLOR_FORCE or FORCE_COLOR force \
         colour instead; TERM=dumb turns it off.",
    ),
    (
        "COLUMNS",
        "The width log, tree and ls rows are fitted into; else the terminal's when stdout is \
         one, and none in a pipe.",
    ),
    ("TZ", "The time zone times are shown in (--utc shows UTC)."),
    (
        "CLAUDE_CONFIG_DIR, CODEX_HOME",
        "Where Claude Code and Codex keep their transcripts (default ~/.claude and ~/.codex), \
         which ls and grep search besides the agents' sessions.",
    ),
    (
        "SESSTREE_PAGER, PAGER",
        "The pager of log, tree, show, context and reflog on a terminal (default less -FRX; \
         empty or cat for none).",
    ),
    (
        "COMPLETE",
        "Set to a shell name (bash, zsh, fish, elvish, powershell), makes sesstree print that \
         shell's completion script instead of running: source <(COMPLETE=bash sesstree).",
    ),
];

/// Writes every page into `dir`.
pub fn write_pages(root: clap::Command, dir: &Path) -> std::io::Result<()> {
    let mut root = root.disable_help_subcommand(true);
    root.build();
    let mut pages = Vec::new();
    collect(&root, &mut pages);
    let siblings: Vec<String> = pages.iter().skip(1).map(page_name).collect();
    for (i, cmd) in pages.iter().enumerate() {
        let path = dir.join(format!("{}.1", page_name(cmd)));
        let see_also: Vec<String> = if i == 0 { siblings.clone() } else { vec![page_name(&root)] };
        std::fs::write(&path, render(cmd, &see_also)?)?;
    }
    Ok(())
}

/// The command and its visible subcommands, depth first.
fn collect(cmd: &clap::Command, out: &mut Vec<clap::Command>) {
    out.push(cmd.clone());
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, out);
    }
}

/// `sesstree-log`: the display name clap gives a built subcommand.
fn page_name(cmd: &clap::Command) -> String {
    cmd.get_display_name().unwrap_or_else(|| cmd.get_name()).to_string()
}

/// One page as roff.
fn render(cmd: &clap::Command, see_also: &[String]) -> std::io::Result<Vec<u8>> {
    // No date: the pages are committed and must not change from one day to the next.
    let man = Man::new(cmd.clone())
        .date("")
        .source(format!("sesstree {}", env!("CARGO_PKG_VERSION")))
        .manual("sesstree manual");
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut out)?;
    }
    let mut roff = Roff::new();
    exit_status(&mut roff);
    environment(&mut roff);
    files(&mut roff);
    if let Some(text) = cmd.get_after_long_help() {
        examples(&mut roff, &text.to_string());
    }
    roff.control("SH", ["SEE ALSO"]);
    let refs: Vec<String> = see_also.iter().map(|p| format!("{p}(1)")).collect();
    roff.text([roman(refs.join(", "))]);
    roff.to_writer(&mut out)?;
    Ok(out)
}

/// EXIT STATUS from the table `--help` shows (`  N  meaning` lines).
fn exit_status(roff: &mut Roff) {
    roff.control("SH", ["EXIT STATUS"]);
    for line in EXIT_STATUS.lines().skip(1) {
        let Some((code, meaning)) = line.trim().split_once("  ") else { continue };
        roff.control("TP", []);
        roff.text([bold(code)]);
        roff.text([roman(meaning.trim())]);
    }
}

fn environment(roff: &mut Roff) {
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, meaning) in ENVIRONMENT {
        roff.control("TP", []);
        roff.text([bold(*name)]);
        roff.text([roman(*meaning)]);
    }
}

fn files(roff: &mut Roff) {
    roff.control("SH", ["FILES"]);
    roff.control("TP", []);
    roff.text([italic("$XDG_CONFIG_HOME/sesstree/hooks/"), italic("<event>")]);
    roff.text([roman(
        "The hooks: an executable named after an event (session_before_tree, session_tree, \
         session_before_branch, session_branch) gets the event as one JSON object on standard \
         input; a session_before_* hook may cancel the operation. On Windows the name has an \
         extension PATHEXT lists (session_tree.cmd, .exe, .bat). --hooks-dir DIR uses another \
         directory and --no-hooks skips them.",
    )]);
    roff.control("TP", []);
    roff.text([italic("~/.omp/agent/sessions"), roman(", "), italic("~/.pi/agent/sessions")]);
    roff.text([roman("The session directories of the oh-my-pi and pi agents.")]);
}

/// EXAMPLES from the indented lines after the "Examples:" line of `text`, if it has one: a
/// line ending with a colon describes, the lines that follow it are commands.
fn examples(roff: &mut Roff, text: &str) {
    let Some(at) = text.find("Examples:\n").filter(|&i| i == 0 || text[..i].ends_with('\n')) else {
        return;
    };
    roff.control("SH", ["EXAMPLES"]);
    let mut in_commands = false;
    let block = text[at..].lines().skip(1).take_while(|l| l.starts_with(' '));
    for line in block.map(str::trim).filter(|l| !l.is_empty()) {
        if line.ends_with(':') {
            if in_commands {
                roff.control("fi", []);
                roff.control("RE", []);
                in_commands = false;
            }
            roff.control("PP", []);
            roff.text([roman(line)]);
        } else {
            if !in_commands {
                roff.control("RS", ["4"]);
                roff.control("nf", []);
                in_commands = true;
            }
            roff.text([bold(line)]);
        }
    }
    if in_commands {
        roff.control("fi", []);
        roff.control("RE", []);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(cmd: clap::Command) -> String {
        let mut root = clap::Command::new("sesstree").subcommand(cmd);
        root.build();
        let sub = root.get_subcommands().next().expect("subcommand").clone();
        String::from_utf8(render(&sub, &["sesstree".to_string()]).expect("render")).expect("utf-8")
    }

    #[test]
    fn examples_from_after_long_help() {
        let text = page(
            clap::Command::new("x")
                .about("Do x")
                .long_about("Do x.\n\nAt length.")
                .after_long_help("Examples:\n  Do it once:\n    sesstree x a\n    sesstree x b"),
        );
        let (before, examples) = text.split_once(".SH EXAMPLES\n").expect("EXAMPLES");
        assert!(before.contains("At length."));
        assert_eq!(
            examples.split(".SH").next().unwrap_or_default(),
            ".PP\nDo it once:\n.RS 4\n.nf\n\\fBsesstree x a\\fR\n\\fBsesstree x b\\fR\n.fi\n.RE\n"
        );
    }

    #[test]
    fn exit_status_lists_every_code() {
        let mut roff = Roff::new();
        exit_status(&mut roff);
        let text = roff.to_roff();
        for code in 0..=7 {
            assert!(text.contains(&format!("\\fB{code}\\fR")), "{text}");
        }
        assert!(text.contains("REV not found or ambiguous"));
    }
}
