//! `sesstree migrate`: brings a session file to version 3. Writes the file in place (atomic
//! replace under the lock, the original kept as FILE.bak) or to `-o PATH`; `--check` and
//! `--dry-run` write nothing.

use std::io::Write;
use std::path::PathBuf;

use sesstree::migrate::{self, Plan};
use sesstree::terminal::sanitize_for_terminal;
use sesstree::{Error, Session, store};

use crate::cli::args::{DialectArg, certain_dialect};
use crate::cli::exit::{Exit, Silent};
use crate::cli::ui::count;
use crate::cli::{Ctx, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Bring a version 1 file to version 3, keeping the original as old.jsonl.bak:
    sesstree migrate -f old.jsonl
  Whether a file needs migrating (exit 1 if it does):
    sesstree migrate -f old.jsonl --check || echo "needs migrating"
  Write the migrated file elsewhere and leave the original alone:
    sesstree migrate -f old.jsonl -o new.jsonl
  Look at the migrated entries without writing anything:
    sesstree migrate -f old.jsonl --dry-run | sesstree log -f -"#;

/// Bring session files to the current format (version 3).
///
/// Takes the file of -f, or files and directories (searched for *.jsonl, as `fsck` and `stats`
/// do), each migrated on its own: one that fails is reported and the others go on (the exit
/// status is the first failure's). -o and --dry-run take one file.
///
/// Version 1 files (entries without ids) get ids and parents chaining the entries in file
/// order: the same ids sesstree already shows for them, derived from the file's content, so
/// migrating the same file twice gives the same bytes. A compaction's firstKeptEntryIndex
/// becomes firstKeptEntryId. Version 2 files get the `hookMessage` role renamed to `custom`.
/// Only the fields a migration adds or changes are written anew; every other byte is kept.
///
/// The file is replaced atomically and the original kept as FILE.bak. A file at version 3 or
/// 4 is current and left alone; a version above 4 is refused (exit 6).
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct MigrateArgs {
    /// Session files or directories (default: the file given by -f).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write the result to PATH instead of replacing the file (also for a current file).
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Do not keep the original as FILE.bak.
    #[arg(long)]
    pub no_backup: bool,
    /// Only tell whether a migration is needed (exit 1 if so); write nothing.
    #[arg(long, conflicts_with_all = ["output", "dry_run"])]
    pub check: bool,
    /// Print the migrated file to stdout; write nothing.
    #[arg(long, conflicts_with = "output")]
    pub dry_run: bool,
    /// Overwrite an existing -o PATH or FILE.bak.
    #[arg(long)]
    pub force: bool,
    /// Whose session the file is (omp or pi), when neither its contents nor its directory
    /// say; refused when they say otherwise. Nothing `migrate` writes differs between them.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub dialect: Option<DialectArg>,
}

/// Runs `migrate`: each file in turn.
pub fn run(ctx: &Ctx, args: &MigrateArgs) -> anyhow::Result<()> {
    // Ctrl-C or SIGTERM removes the temporary file being written before exiting.
    crate::cli::signals::install_signal_handler();
    let files = crate::cli::args::session_paths(ctx, &args.paths)?;
    if files.len() > 1 && (args.output.is_some() || args.dry_run) {
        let flag = if args.dry_run { "--dry-run" } else { "-o" };
        anyhow::bail!(Error::Usage(format!(
            "{flag} takes one file; {} were given (leave {flag} out to migrate them in place)",
            files.len()
        )));
    }
    let mut out = stdout();
    let (mut first_error, mut needs) = (None, false);
    for path in &files {
        match one(ctx, args, path, &mut out) {
            Ok(changed) => needs |= changed,
            Err(e) if files.len() == 1 => return Err(e),
            Err(e) => {
                // One file that fails does not stop the others; the first sets the exit status.
                out.flush()?;
                eprintln!("error: {}", sanitize_for_terminal(&format!("{e:#}")));
                first_error.get_or_insert(e);
            }
        }
    }
    out.flush()?;
    if let Some(e) = first_error {
        anyhow::bail!(Silent(crate::cli::exit::classify(&e).0));
    }
    if args.check && needs {
        anyhow::bail!(Silent(Exit::Failed));
    }
    Ok(())
}

/// Migrates one file (or checks it): whether it needs migrating.
fn one(
    ctx: &Ctx,
    args: &MigrateArgs,
    path: &std::path::Path,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let shown = sanitize_for_terminal(&path.display().to_string()).into_owned();
    // A version too new or a missing header is the error to give, not a warning first.
    let plan_of = |session: &Session| -> anyhow::Result<Plan> {
        let plan = migrate::plan(session)?;
        ctx.report(session)?;
        certain_dialect(session, args.dialect)?;
        Ok(plan)
    };

    if args.check || args.dry_run {
        let plan = plan_of(&Session::load(path)?)?;
        if args.dry_run && !ctx.json {
            out.write_all(&plan.bytes)?;
        } else if ctx.json {
            write_json_line(out, &with_file(path, plan.to_json(None)))?;
        } else if plan.changed {
            let (from, to) = (plan.from_version, plan.to_version);
            writeln!(out, "{shown}: version {from} needs migrating to {to}")?;
        } else {
            writeln!(out, "{shown}: version {}, up to date", plan.from_version)?;
        }
        return Ok(plan.changed);
    }

    // Written to -o, or in place (a current file is left alone): the plan, the backup kept
    // and what to say after what the migration did.
    let (plan, backup, done) = if let Some(output) = &args.output {
        if store::same_file(path, output) {
            anyhow::bail!(Error::Usage(format!(
                "{}: -o names the file itself; leave -o out to migrate in place",
                output.display()
            )));
        }
        let plan = plan_of(&Session::load(path)?)?;
        let like = (path.as_os_str() != "-").then_some(path);
        store::write_new(output, &plan.bytes, like, args.force)?;
        let to = sanitize_for_terminal(&output.display().to_string()).into_owned();
        (plan, None, format!("; written to {to}"))
    } else {
        let locked = ctx.lock_file(path)?;
        let session = Session::load(locked.path())?;
        let plan = plan_of(&session)?;
        let backup = (plan.changed && !args.no_backup).then(|| migrate::backup_path(path));
        match &backup {
            Some(b) if !args.force && std::fs::symlink_metadata(b).is_ok() => {
                // Said up front, with the ways out; the write itself would refuse too.
                anyhow::bail!(Error::Conflict(format!(
                    "{}: already exists; nothing was migrated (--force overwrites it, --no-backup skips it)",
                    b.display()
                )));
            }
            Some(b) => locked.replace_keeping(&session, &plan.bytes, b, args.force)?,
            None if plan.changed => locked.replace(&session, &plan.bytes)?,
            None => {}
        }
        let kept =
            backup.as_ref().map(|b| sanitize_for_terminal(&b.display().to_string()).into_owned());
        (plan, backup, kept.map(|b| format!(" (original kept as {b})")).unwrap_or_default())
    };
    if ctx.json {
        write_json_line(out, &with_file(path, plan.to_json(backup.as_deref())))?;
    } else {
        writeln!(out, "{shown}: {}{done}", describe(&plan))?;
    }
    Ok(false)
}

/// What the migration did, in words.
fn describe(plan: &Plan) -> String {
    if !plan.changed {
        return format!("already at version {}, nothing to migrate", plan.from_version);
    }
    let mut parts = Vec::new();
    if plan.ids_added > 0 {
        parts.push(count(plan.ids_added, "entry given an id", "entries given ids"));
    }
    if plan.indexes_converted > 0 {
        let (one, many) = ("compaction index converted", "compaction indexes converted");
        parts.push(count(plan.indexes_converted, one, many));
    }
    if plan.roles_renamed > 0 {
        let (one, many) = ("hookMessage role renamed", "hookMessage roles renamed");
        parts.push(count(plan.roles_renamed, one, many));
    }
    let mut text = format!("migrated from version {} to {}", plan.from_version, plan.to_version);
    if !parts.is_empty() {
        text.push_str(&format!(": {}", parts.join(", ")));
    }
    text
}

/// A `--json` report with the file it is about first (`migrate` takes many).
fn with_file(path: &std::path::Path, report: serde_json::Value) -> serde_json::Value {
    let mut object = serde_json::Map::new();
    object.insert("file".into(), path.display().to_string().into());
    if let serde_json::Value::Object(rest) = report {
        object.extend(rest);
    }
    serde_json::Value::Object(object)
}
