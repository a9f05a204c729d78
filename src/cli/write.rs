//! A checkout and a label as the user asks for them, from `sesstree checkout`, `sesstree label`
//! or the tree selector: the lock, the load's warnings, the session's agent, the REV, the
//! library's workflow ([`sesstree::ops`]), and what is printed about it.

use std::io::{IsTerminal, Write};

use serde_json::json;
use sesstree::hooks::Hooks;
use sesstree::ops::checkout::{self, Navigation, Note, Plan, Request, SummarySource};
use sesstree::ops::label;
use sesstree::process::CancelToken;
use sesstree::{Session, rev, store};

use crate::cli::args::{DialectArg, certain_dialect};
use crate::cli::signals::cancel_on_interrupt;
use crate::cli::ui::{self, Role, short_id};
use crate::cli::{Ctx, fault, stdout, write_json_line};

/// A checkout as the user asks for it.
#[derive(Debug)]
pub struct CheckoutRequest<'a> {
    /// The REV to move to.
    pub rev: &'a str,
    /// Where the summary of the abandoned branch comes from.
    pub summary: SummarySource,
    /// `--label`.
    pub label: Option<&'a str>,
    /// `--dialect`.
    pub dialect: Option<DialectArg>,
    /// `--dry-run`: print what would be appended, and write nothing.
    pub dry_run: bool,
    /// The hooks to run (none in a dry run), stopped by `cancel`.
    pub hooks: &'a Hooks,
    /// Set by Ctrl-C once the move is known: a hook or the summarizer stops, nothing is written.
    pub cancel: &'a CancelToken,
}

/// Runs a checkout (`sesstree checkout`): moves the leaf and says so, or prints what a dry
/// run would append.
pub fn checkout(ctx: &Ctx, request: CheckoutRequest) -> anyhow::Result<()> {
    let (hooks, cancel, dry_run) = (request.hooks, request.cancel, request.dry_run);
    checkout::require_summarizer(&request.summary, hooks, dry_run)?;
    let locked = if dry_run { None } else { Some(ctx.lock()?) };
    let session = match &locked {
        Some(l) => l.load()?,
        None => {
            // As label and name: a dry run refuses what the real run would.
            store::refuse_stdin(ctx.file()?)?;
            let s = Session::load(ctx.file()?)?;
            store::check_writable(&s)?;
            s
        }
    };
    ctx.report(&session)?;
    // The summary is text both agents read: when the file does not say, the readers' guess.
    let dialect = certain_dialect(&session, request.dialect)?.unwrap_or_else(|| session.dialect());
    let target = rev::resolve(&session, request.rev)?;
    let nav = checkout::navigate(&session, target)?;
    let label = request.label.is_some();
    if nav.noop {
        return print_checkout(ctx, &session, &nav, None, dry_run, label);
    }
    // Only now: a Ctrl-C while waiting for the lock should still end sesstree at once.
    cancel_on_interrupt(cancel);
    let ops_request =
        Request { summary: request.summary, label: request.label, dialect, hooks, cancel };
    let clock = ctx.clock()?;
    let done = checkout::run(
        &session,
        &nav,
        &ops_request,
        locked,
        &mut ctx.ids(),
        &clock,
        &mut print_checkout_note,
    )?;
    print_checkout(ctx, &session, &nav, Some(&done.plan), dry_run, label)?;
    if dry_run {
        return Ok(());
    }
    ctx.note_other_file();
    checkout::notify(hooks, &session, &nav, &done)?;
    Ok(())
}

/// What a checkout prints: the `--json` object, or on stdout the editor text (the lines it
/// would append, for a dry run) and a status line on stderr. No plan: nothing to move.
/// `label`: whether a label was asked for (a checkout that does not move says how to set one).
fn print_checkout(
    ctx: &Ctx,
    session: &Session,
    nav: &Navigation,
    plan: Option<&Plan>,
    dry_run: bool,
    label: bool,
) -> anyhow::Result<()> {
    let mut out = stdout();
    if ctx.json {
        write_json_line(&mut out, &checkout::outcome_json(session, nav, plan, dry_run))?;
        out.flush()?;
        return Ok(());
    }
    let to = id_text(session, nav.new_leaf);
    match plan {
        None => {
            // `checkout U` again: the leaf stays, and the prefill is given again.
            write_prefill(&mut out, nav.editor_text.as_deref())?;
            out.flush()?;
            let hint = match label {
                true => " (nothing written; `sesstree label` sets a label)",
                false => "",
            };
            eprintln!("Already at this point{hint}");
        }
        Some(plan) if dry_run => {
            for line in &plan.lines {
                writeln!(out, "{}", ui::show(&String::from_utf8_lossy(line)))?;
            }
            out.flush()?;
            eprintln!("dry run: would move the leaf to {to}; nothing was written");
        }
        Some(plan) => {
            write_prefill(&mut out, nav.editor_text.as_deref())?;
            out.flush()?;
            let appended: Vec<String> = plan
                .entries
                .iter()
                .zip(&plan.appended)
                .map(|(e, id)| {
                    let kind = e["type"].as_str().unwrap_or("?");
                    format!("{kind} {}", ui::show(short_id(id.as_str())))
                })
                .collect();
            let from = nav.old_leaf.map(|_| format!("from {} ", id_text(session, nav.old_leaf)));
            let from = from.unwrap_or_default();
            let appended = appended.join(", ");
            eprintln!("Moved {from}to {to}; appended {appended} (`checkout -` goes back)");
        }
    }
    Ok(())
}

/// The editor prefill on stdout. It is meant to be captured (`> draft.txt`) exactly; only a
/// terminal gets it with control characters escaped.
fn write_prefill(out: &mut impl Write, text: Option<&str>) -> std::io::Result<()> {
    let Some(text) = text else { return Ok(()) };
    if std::io::stdout().is_terminal() {
        out.write_all(sesstree::terminal::sanitize_keep_lines(text).as_bytes())?;
    } else {
        out.write_all(text.as_bytes())?;
    }
    if !text.is_empty() && !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn id_text(session: &Session, idx: Option<u32>) -> String {
    match idx.and_then(|i| session.record(i).id.as_ref()) {
        Some(id) => ui::show(short_id(id.as_str())).into_owned(),
        None => "a new root".to_string(),
    }
}

/// Shows what a checkout says while it runs, on stderr.
fn print_checkout_note(note: Note) {
    match note {
        Note::NothingToSummarize { below } => {
            let why = match below {
                true => "the move leaves nothing behind: the target is below the current position",
                false => "the move leaves nothing behind",
            };
            eprintln!("note: nothing to summarize ({why}); moving without a summary");
        }
        // The summarizer may take a while; said only when one runs.
        Note::Summarizing if std::io::stderr().is_terminal() => {
            eprintln!("Summarizing the abandoned branch… (Ctrl-C cancels)");
        }
        Note::Summarizing => {}
    }
}

/// A label change as the user asks for it.
#[derive(Debug)]
pub struct LabelRequest<'a> {
    /// The REV of the entry to label.
    pub rev: &'a str,
    /// The label, normalized ([`label::normalize`]); `None` removes it.
    pub label: Option<&'a str>,
    /// `--force`: move the label here, or set one that looks like an id.
    pub force: bool,
    /// `--dialect`.
    pub dialect: Option<DialectArg>,
    /// `--dry-run`: print the lines that would be appended, and write nothing.
    pub dry_run: bool,
}

/// Sets or removes a label (`sesstree label REV TEXT`) and says so, or prints what a dry run
/// would append; gives back the session it loaded, for the caller to free or not.
pub fn label(ctx: &Ctx, request: LabelRequest) -> anyhow::Result<Session> {
    let locked = ctx.lock()?;
    let session = locked.load()?;
    ctx.report(&session)?;
    certain_dialect(&session, request.dialect)?;
    let target = rev::resolve(&session, request.rev)?;
    let now = ctx.clock()?.now_iso();
    let labelling =
        label::set(&session, target, request.label, request.force, &mut ctx.ids(), &now)?;

    let mut out = stdout();
    if request.dry_run {
        // JSON escapes C0 controls only; an id from the file may hold C1 ones.
        for line in &labelling.lines {
            writeln!(out, "{}", ui::show(&String::from_utf8_lossy(line)))?;
        }
        out.flush()?;
        return Ok(session);
    }
    fault::before_write();
    locked.append(&session, &labelling.lines)?;

    let change = &labelling.change;
    let moved_from = (!labelling.moved_from.is_empty()).then(|| {
        let shown: Vec<String> =
            labelling.moved_from.iter().map(|o| ui::show(o.as_str()).into_owned()).collect();
        shown.join(", ")
    });
    if ctx.json {
        let value = json!({
            "id": change.id,
            "targetId": change.target.to_value(),
            "label": change.label,
        });
        write_json_line(&mut out, &value)?;
    } else {
        let target = ctx.style.paint(&ui::show(change.target.as_str()), Role::Id);
        let was = match &change.previous {
            Some(p) => format!("was \"{}\"", ui::show(p)),
            None => "it had none".to_owned(),
        };
        match &change.label {
            Some(l) => {
                let label = ctx.style.paint(&ui::show(l), Role::Label);
                let moved = moved_from.as_ref().map(|m| format!(", moved from {m}"));
                let moved = moved.unwrap_or_default();
                match &change.previous {
                    Some(_) => writeln!(out, "Labelled {target} \"{label}\" ({was}{moved})")?,
                    None if moved.is_empty() => writeln!(out, "Labelled {target} \"{label}\"")?,
                    None => writeln!(out, "Labelled {target} \"{label}\" ({})", &moved[2..])?,
                }
            }
            None => writeln!(out, "Removed the label of {target} ({was})")?,
        }
    }
    out.flush()?;
    ctx.note_other_file();
    Ok(session)
}
