//! `sesstree prune`: removes branches off the active path (the plan is
//! [`sesstree::ops::prune`]), or puts saved ones back. Writes in place (atomic replace under the
//! lock, the original kept as FILE.bak) or to `-o PATH`; `--dry-run` writes nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sesstree::format::Dialect;
use sesstree::ops::images;
use sesstree::ops::prune::{self, Piece, PrunePlan, Select};
use sesstree::terminal::sanitize_for_terminal;
use sesstree::{EntryId, Error, Session, migrate, rev, store};

use crate::cli::args::{DialectArg, certain_dialect};
use crate::cli::ui::count;
use crate::cli::{Ctx, complete, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  See what removing every branch off the active path would free, and write nothing:
    sesstree -f session.jsonl prune --abandoned --dry-run
  Remove the branches untouched for 30 days, saving what goes:
    sesstree prune --abandoned --older-than 30d --save pruned.jsonl
  Remove one branch (the entry and everything below it), keeping session.jsonl.bak:
    sesstree prune 4e8a2c59
  Remove a branch, saving its lines, then put them back:
    sesstree prune 4e8a2c59 --save pruned.jsonl; sesstree prune --restore pruned.jsonl"#;

/// Remove branches off the active path, or put removed ones back
///
/// Removes the subtree of each REV (the entry and everything below it); with --abandoned,
/// every branch off the active path (with --older-than SPAN, those whose newest entry is older
/// than SPAN, `30d` or a date as `grep --since` takes them); with --markers, the empty move
/// markers `checkout` leaves behind that nothing hangs below. A REV on the active path (root
/// to leaf) is refused (exit 2): the conversation the agent continues never changes.
///
/// Every kept line is copied byte for byte. A label that a removed `label` entry had in effect
/// on a kept entry is set again by a new `label` entry at the end of the file, with the time
/// of the entry it re-creates. A `label` entry that stays but names a removed entry, or a
/// compaction that keeps entries from one, would name nothing: such a REV is refused (exit 2),
/// and --abandoned leaves such a branch in place.
///
/// Nothing goes by accident: --save FILE appends every removed line, byte for byte, to FILE
/// (after the session's header when FILE is new: a session file sesstree reads), and
/// `prune --restore FILE` puts them back, ids and parents intact, in front of the file's last
/// line (the leaf stays where it is); saved entries already in the file are left out. A prune
/// that fails or is interrupted takes its lines off FILE again. Without --save, the original
/// is kept as FILE.bak unless --no-backup.
///
/// A file with damage (unreadable or torn lines, duplicate ids, missing parents, no final
/// newline) is refused (exit 3): run `sesstree fsck` first. A session oh-my-pi has open is
/// refused (exit 5) unless --even-if-open.
///
/// Prints what was removed: the entries and bytes, each subtree's first entry and size; with
/// --json one object {"file", "removed", "subtrees", "removedBytes", "labelsCreated",
/// "dryRun", "backup", "saved", "output"} (or {"file", "restored", "present", ...} for
/// --restore).
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct PruneArgs {
    /// The entries whose subtrees go.
    #[arg(value_name = "REV", add = complete::rev())]
    pub revs: Vec<String>,
    /// Remove every branch off the active path.
    #[arg(long, conflicts_with_all = ["revs", "markers"])]
    pub abandoned: bool,
    /// With --abandoned: only branches whose newest entry is older than SPAN (`30d`, `12h`,
    /// or a date: 2026-11-30).
    #[arg(long, value_name = "SPAN", requires = "abandoned")]
    pub older_than: Option<String>,
    /// Remove the empty move markers of `checkout` that nothing hangs below.
    #[arg(long, conflicts_with = "revs")]
    pub markers: bool,
    /// Move the inline base64 images of an oh-my-pi session into oh-my-pi's blob store, as
    /// oh-my-pi itself writes them (`blob:sha256:` references); refused for pi sessions.
    #[arg(long, conflicts_with_all = ["revs", "abandoned", "markers", "save"])]
    pub images: bool,
    /// With --images: whose session the file is (omp or pi), when neither its contents nor
    /// its directory say.
    #[arg(long, value_enum, value_name = "AGENT", requires = "images")]
    pub dialect: Option<DialectArg>,
    /// Put back the entries a `--save` wrote to FILE.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["revs", "abandoned", "markers", "save", "images"])]
    pub restore: Option<PathBuf>,
    /// Append every removed line to FILE (made with the session's header when new).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Write the result to PATH instead of replacing the file.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Do not keep the original as FILE.bak.
    #[arg(long)]
    pub no_backup: bool,
    /// Print what would be removed; write nothing.
    #[arg(long, conflicts_with = "output")]
    pub dry_run: bool,
    /// Overwrite an existing -o PATH or FILE.bak.
    #[arg(long)]
    pub force: bool,
}

/// Runs `prune`.
pub fn run(ctx: &Ctx, args: &PruneArgs) -> anyhow::Result<()> {
    // Ctrl-C or SIGTERM removes the temporary file being written before exiting.
    crate::cli::signals::install_signal_handler();
    let path = ctx.file()?.to_path_buf();
    store::refuse_stdin(&path)?;
    if args.revs.is_empty()
        && !args.abandoned
        && !args.markers
        && !args.images
        && args.restore.is_none()
    {
        anyhow::bail!(Error::Usage(
            "say what to prune: REV..., --abandoned, --markers or --images (or --restore FILE)"
                .into()
        ));
    }
    if let Some(output) = &args.output
        && store::same_file(&path, output)
    {
        anyhow::bail!(Error::Usage(format!(
            "{}: -o names the file itself; leave -o out to prune in place",
            output.display()
        )));
    }
    // Without -o the file is replaced: lock it first, and plan on what is under the lock.
    let locked =
        if args.output.is_none() && !args.dry_run { Some(ctx.lock_file(&path)?) } else { None };
    let session = match &locked {
        Some(locked) => locked.load()?,
        None => {
            let session = Session::load(&path)?;
            store::check_writable(&session)?;
            session
        }
    };
    let mut out = stdout();
    if let Some(saved) = &args.restore {
        return restore(ctx, args, &session, locked.as_ref(), saved, &mut out);
    }
    if args.images {
        return images(ctx, args, &session, locked.as_ref(), &mut out);
    }
    let select = if args.abandoned {
        let now = ctx.clock()?.now_millis();
        let older_than =
            args.older_than.as_deref().map(|s| crate::cli::time::when("--older-than", s, now));
        Select::Abandoned { older_than: older_than.transpose()? }
    } else if args.markers {
        Select::Markers
    } else {
        let revs = args.revs.iter().map(|r| rev::resolve(&session, r));
        Select::Subtrees(revs.collect::<Result<_, _>>()?)
    };
    let plan = prune::plan(&session, &select, &mut ctx.ids())?;
    if plan.is_empty()
        && !args.dry_run
        && let Some(file) = &args.save
    {
        // Nothing goes, but the save file is there afterwards, as a script may expect.
        append_saved(&session, &plan, file)?.keep();
    }
    if plan.is_empty() || args.dry_run {
        return report(
            ctx,
            &session,
            &plan,
            &path,
            args.dry_run || plan.is_empty(),
            &Done::default(),
            &mut out,
        );
    }

    let mut done = Done::default();
    let save = args.save.as_deref().map(|file| append_saved(&session, &plan, file)).transpose()?;
    write(args, &session, locked.as_ref(), &path, &plan.pieces, save, &mut done)?;
    done.saved = args.save.clone();
    report(ctx, &session, &plan, &path, false, &done, &mut out)
}

/// Where the result went.
#[derive(Debug, Default)]
struct Done {
    backup: Option<PathBuf>,
    saved: Option<PathBuf>,
    output: Option<PathBuf>,
}

impl Done {
    /// A line for each place the result went: the backup, the save file, the output.
    fn write_places(&self, out: &mut impl Write) -> std::io::Result<()> {
        let places = [
            ("original kept as", &self.backup),
            ("removed lines saved to", &self.saved),
            ("written to", &self.output),
        ];
        for (what, path) in places {
            if let Some(path) = path {
                writeln!(out, "{what} {}", sanitize_for_terminal(&path.display().to_string()))?;
            }
        }
        Ok(())
    }
}

/// Writes `pieces` to -o, or in place (keeping FILE.bak unless --save or --no-backup); the
/// lines `saved` appended to the save file stay only if this write is done.
fn write(
    args: &PruneArgs,
    session: &Session,
    locked: Option<&store::Locked>,
    path: &Path,
    pieces: &[Piece],
    saved: Option<store::Appended>,
    done: &mut Done,
) -> anyhow::Result<()> {
    let fill = |w: &mut dyn Write, to: &Path| prune::write_pieces(session, pieces, w, to);
    if let Some(output) = &args.output {
        let fill = |w: &mut dyn Write| fill(w, output);
        match saved {
            Some(saved) => store::write_new_after(saved, output, Some(path), args.force, fill)?,
            None => store::write_new_with(output, Some(path), args.force, fill)?,
        }
        done.output = Some(output.clone());
        return Ok(());
    }
    let locked = locked.expect("in place, the file is locked");
    let backup = (args.save.is_none() && !args.no_backup).then(|| migrate::backup_path(path));
    if let Some(b) = &backup
        && !args.force
        && std::fs::symlink_metadata(b).is_ok()
    {
        anyhow::bail!(Error::Conflict(format!(
            "{}: already exists; nothing was pruned (--force overwrites it, --no-backup skips \
             it, --save keeps the removed lines instead)",
            b.display()
        )));
    }
    let fill = |w: &mut dyn Write| fill(w, path);
    match saved {
        Some(saved) => locked.rewrite_after(session, saved, fill)?,
        None => locked.rewrite_with(session, backup.as_deref().map(|b| (b, args.force)), fill)?,
    }
    done.backup = backup;
    Ok(())
}

/// Appends the removed lines to the save file (after the header when it is new or empty),
/// pending the write of the pruned file.
fn append_saved(
    session: &Session,
    plan: &PrunePlan,
    file: &Path,
) -> anyhow::Result<store::Appended> {
    if store::same_file(&session.path, file) {
        anyhow::bail!(Error::Usage(format!("{}: --save names the file itself", file.display())));
    }
    Ok(store::append_pending(file, |out, empty| {
        prune::write_pieces(session, &plan.saved_pieces(session, empty), out, file)
    })?)
}

/// The short id of a record.
fn id_of(session: &Session, idx: u32) -> &str {
    session.record(idx).id.as_ref().map_or("?", EntryId::as_str)
}

/// Prints what the prune removed (or would remove).
fn report(
    ctx: &Ctx,
    session: &Session,
    plan: &PrunePlan,
    path: &Path,
    dry_run: bool,
    done: &Done,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let ids = |list: &[u32]| -> Vec<Value> {
        list.iter()
            .map(|&i| session.record(i).id.as_ref().map_or(Value::Null, EntryId::to_value))
            .collect()
    };
    let shown = |p: &Path| sanitize_for_terminal(&p.display().to_string()).into_owned();
    if ctx.json {
        let object = json!({
            "file": path.display().to_string(),
            "removed": ids(&plan.removed),
            "subtrees": ids(&plan.subtrees.iter().map(|&(r, _)| r).collect::<Vec<_>>()),
            "removedBytes": plan.removed_bytes,
            "labelsCreated": plan.created.iter().map(|r| r.id.to_value()).collect::<Vec<_>>(),
            "dryRun": dry_run,
            "backup": done.backup.as_ref().map(|p| p.display().to_string()),
            "saved": done.saved.as_ref().map(|p| p.display().to_string()),
            "output": done.output.as_ref().map(|p| p.display().to_string()),
        });
        write_json_line(out, &object)?;
        out.flush()?;
        return Ok(());
    }
    if plan.is_empty() {
        writeln!(out, "{}: nothing to prune", shown(path))?;
        out.flush()?;
        return Ok(());
    }
    let verb = if dry_run { "would remove" } else { "removed" };
    writeln!(
        out,
        "{}: {verb} {} ({} bytes) in {}",
        shown(path),
        count(plan.removed.len(), "entry", "entries"),
        plan.removed_bytes,
        count(plan.subtrees.len(), "subtree", "subtrees")
    )?;
    for &(root, size) in &plan.subtrees {
        let kind = session.record(root).kind.as_str();
        writeln!(
            out,
            "  {} {kind} ({})",
            crate::cli::ui::short_id(id_of(session, root)),
            count(size, "entry", "entries")
        )?;
    }
    let verb = if dry_run { "would set again" } else { "set again" };
    for relabel in &plan.created {
        let target = crate::cli::ui::short_id(relabel.target.as_str());
        match &relabel.label {
            Some(label) => {
                let text = label.as_str().map_or_else(|| label.to_string(), str::to_owned);
                writeln!(out, "{verb}: label {} on {target}", sanitize_for_terminal(&text))?;
            }
            None => writeln!(out, "{verb}: no label on {target}")?,
        }
    }
    done.write_places(out)?;
    out.flush()?;
    Ok(())
}

/// `--restore FILE`: puts the saved entries back.
fn restore(
    ctx: &Ctx,
    args: &PruneArgs,
    session: &Session,
    locked: Option<&store::Locked>,
    saved: &Path,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let from = Session::load(saved)?;
    let plan = prune::restore(session, &from)?;
    let path = session.path.clone();
    let mut done = Done::default();
    if !plan.restored.is_empty() && !args.dry_run {
        write(args, session, locked, &path, &plan.pieces(session), None, &mut done)?;
    }
    let ids = |list: &[EntryId]| list.iter().map(EntryId::to_value).collect::<Vec<_>>();
    if ctx.json {
        let object = json!({
            "file": path.display().to_string(),
            "restored": ids(&plan.restored),
            "present": ids(&plan.present),
            "dryRun": args.dry_run,
            "backup": done.backup.as_ref().map(|p| p.display().to_string()),
            "output": done.output.as_ref().map(|p| p.display().to_string()),
        });
        write_json_line(out, &object)?;
    } else {
        let verb = if args.dry_run { "would restore" } else { "restored" };
        let shown = |p: &Path| sanitize_for_terminal(&p.display().to_string()).into_owned();
        write!(
            out,
            "{}: {verb} {} from {}",
            shown(&path),
            count(plan.restored.len(), "entry", "entries"),
            shown(saved)
        )?;
        if !plan.present.is_empty() {
            write!(out, " ({} already in the file)", plan.present.len())?;
        }
        writeln!(out)?;
        done.write_places(out)?;
    }
    out.flush()?;
    Ok(())
}

/// `--images`: moves inline images into oh-my-pi's blob store.
fn images(
    ctx: &Ctx,
    args: &PruneArgs,
    session: &Session,
    locked: Option<&store::Locked>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let shown = |p: &Path| sanitize_for_terminal(&p.display().to_string()).into_owned();
    let path = session.path.clone();
    match certain_dialect(session, args.dialect)? {
        Some(Dialect::Omp) => {}
        Some(Dialect::Pi) => anyhow::bail!(Error::Usage(format!(
            "{}: a pi session; pi keeps images in the file and has no blob store, so --images \
             is only for oh-my-pi sessions",
            shown(&path)
        ))),
        None => anyhow::bail!(Error::Usage(format!(
            "{}: cannot tell whose session this is; --images is only for oh-my-pi sessions \
             (give --dialect omp if it is one)",
            shown(&path)
        ))),
    }
    prune::require_clean(session)?;
    let blobs = crate::cli::places().omp_blobs();
    let plan = if args.dry_run {
        images::plan(session, &mut |_| Ok(()))?
    } else {
        images::plan(session, &mut |blob| put_blob(&blobs, blob))?
    };
    let mut done = Done::default();
    if plan.lines > 0 && !args.dry_run {
        write(args, session, locked, &path, &plan.pieces, None, &mut done)?;
    }
    if ctx.json {
        let object = json!({
            "file": path.display().to_string(),
            "images": plan.images,
            "lines": plan.lines,
            "savedBytes": plan.saved_bytes,
            "blobs": blobs.display().to_string(),
            "dryRun": args.dry_run,
            "backup": done.backup.as_ref().map(|p| p.display().to_string()),
            "output": done.output.as_ref().map(|p| p.display().to_string()),
        });
        write_json_line(out, &object)?;
    } else if plan.images == 0 {
        writeln!(out, "{}: no inline image to move", shown(&path))?;
    } else {
        let verb = if args.dry_run { "would move" } else { "moved" };
        writeln!(
            out,
            "{}: {verb} {} ({} bytes) from {} into {}",
            shown(&path),
            count(plan.images, "image", "images"),
            plan.saved_bytes,
            count(plan.lines, "line", "lines"),
            shown(&blobs)
        )?;
        done.write_places(out)?;
    }
    out.flush()?;
    Ok(())
}

/// Stores one blob as oh-my-pi's `BlobStore.putSync` does: `<dir>/<hash>`, and a link
/// `<hash>.<ext>` beside it (a copy where links fail). A blob already there is the same bytes
/// (its name is their hash) and is left as it is.
fn put_blob(dir: &Path, blob: &images::Blob<'_>) -> sesstree::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let canonical = dir.join(&blob.hash);
    if !canonical.exists() {
        match store::write_new(&canonical, blob.bytes, None, false) {
            Err(Error::Conflict(_)) if canonical.exists() => {}
            other => other?,
        }
    }
    if let Some(ext) = &blob.extension {
        let typed = dir.join(format!("{}.{ext}", blob.hash));
        if !typed.exists() && std::fs::hard_link(&canonical, &typed).is_err() && !typed.exists() {
            store::write_new(&typed, blob.bytes, None, false)?;
        }
    }
    Ok(())
}
