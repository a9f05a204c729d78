//! The only code that writes session files (SPEC §7).
//!
//! Appends take an exclusive advisory lock, load and check the file under it, and write all new
//! lines with one `write` on an append handle, then `fsync`. oh-my-pi's lock gate beside the
//! file is taken too when it is there ([`lock`]); pi does not lock. So the file's length and
//! identity are checked again just before writing: if anything was appended meanwhile, nothing
//! is written and the command fails with a conflict. A write that fails half-way is cut back to
//! the old length, so a failed command leaves the file byte for byte as it was. New and
//! rewritten files go to a temporary file in the same directory, are synced, and are renamed
//! into place.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::fs::{FileExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::format::MAX_VERSION;
use crate::session::Session;

/// An exclusive advisory lock on a session file, held until dropped.
#[derive(Debug)]
pub struct Locked {
    file: File,
    /// oh-my-pi's lock gate beside the file, locked too when it is there (see [`lock`]).
    _gate: Option<File>,
    /// The path as the user gave it, for messages.
    path: PathBuf,
    /// The file itself (symlinks resolved): every read, write and rename goes here, so a
    /// rewrite replaces the session file and never a symlink pointing at it.
    real: PathBuf,
}

/// Locks `path` for writing, waiting up to `timeout` for another sesstree to finish.
///
/// The lock is on an open file, not on a path. A writer that held it may have replaced the
/// file (an atomic rewrite renames a new file over the old one); the lock then taken belongs
/// to the old, unlinked file. So once locked, the handle must still be the file at the path,
/// else it is reopened and locked again, within the same `timeout`.
///
/// oh-my-pi keeps an advisory lock on `.<name>.jsonl.lock.os` beside a session while it has
/// it open (CHANGES O2). When that file is there, it is locked too, within the same
/// `timeout`, so that sesstree never writes a session oh-my-pi holds; it is never created or
/// deleted here: `lock` runs before the file is read, so it cannot tell an oh-my-pi file from
/// a pi one, and oh-my-pi makes the gate whenever it opens a session.
pub fn lock(path: &Path, timeout: Duration) -> Result<Locked> {
    refuse_stdin(path)?;
    let real = std::fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    let start = Instant::now();
    let held = || {
        Error::Conflict(format!(
            "{}: another process holds the lock (waited {:.1} s)",
            path.display(),
            timeout.as_secs_f64()
        ))
    };
    loop {
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(&real)
            .map_err(|e| Error::io(path, e))?;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {
                    if start.elapsed() >= timeout {
                        return Err(held());
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(Error::io(path, e)),
            }
        }
        let ours = file.metadata().map_err(|e| Error::io(path, e))?;
        let now = std::fs::metadata(&real).map_err(|e| Error::io(path, e))?;
        if ours.dev() == now.dev() && ours.ino() == now.ino() {
            let gate = lock_gate(path, &real, start, timeout)?;
            return Ok(Locked { file, _gate: gate, path: path.to_path_buf(), real });
        }
        // Replaced while we waited: the lock on the old file guards nothing.
        if start.elapsed() >= timeout {
            return Err(held());
        }
    }
}

/// The path of oh-my-pi's lock gate for the session file `real`: `.<name>.lock.os` beside it.
fn gate_path(real: &Path) -> Option<PathBuf> {
    let mut name = std::ffi::OsString::from(".");
    name.push(real.file_name()?);
    name.push(".lock.os");
    Some(real.with_file_name(name))
}

/// Locks oh-my-pi's lock gate of `real`, when there is one, waiting until `timeout` has passed
/// since `start`.
fn lock_gate(path: &Path, real: &Path, start: Instant, timeout: Duration) -> Result<Option<File>> {
    let Some(gate_path) = gate_path(real) else { return Ok(None) };
    let gate = match File::open(&gate_path) {
        Ok(gate) => gate,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&gate_path, e)),
    };
    loop {
        match gate.try_lock() {
            Ok(()) => return Ok(Some(gate)),
            Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < timeout => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Error::Conflict(format!(
                    "{}: oh-my-pi has this session open ({} is locked; waited {:.1} s): close \
                     it there, or run the command again once it is closed",
                    path.display(),
                    gate_path.display(),
                    timeout.as_secs_f64()
                )));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(Error::io(&gate_path, e)),
        }
    }
}

/// Refuses `-` (standard input) as the file of a writing command, `--dry-run` included: the
/// plan of a write is made on the file it would write to.
pub fn refuse_stdin(path: &Path) -> Result<()> {
    if path.as_os_str() == "-" {
        return Err(Error::Usage(
            "this command writes the file; it cannot read standard input".into(),
        ));
    }
    Ok(())
}

/// Refuses what no writer may build on: an empty file, no header, a version too new, a
/// version-1 file (whose ids exist only in memory until `migrate` writes them).
pub fn check_writable(session: &Session) -> Result<()> {
    if session.is_empty() {
        return Err(Error::Empty { path: session.path.clone() });
    }
    let header = session.require_header()?;
    if header.version > MAX_VERSION {
        return Err(Error::TooNew { path: session.path.clone(), version: header.version });
    }
    if session.is_v1() {
        return Err(Error::NeedsMigration { path: session.path.clone() });
    }
    Ok(())
}

impl Locked {
    /// The locked path, as the user gave it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Loads the session under the lock and checks that it may be written to.
    pub fn load(&self) -> Result<Session> {
        let mut session = Session::load(&self.real)?;
        // Warnings and errors name the file as the user did.
        session.path.clone_from(&self.path);
        check_writable(&session)?;
        Ok(session)
    }

    /// Fails with a conflict when the file is no longer what `session` was loaded from: it
    /// grew or shrank, or the path now names another file.
    fn check_fresh(&self, session: &Session) -> Result<()> {
        let meta = self.file.metadata().map_err(|e| Error::io(&self.path, e))?;
        let now = std::fs::metadata(&self.real).map_err(|e| Error::io(&self.path, e))?;
        if meta.len() != session.file_len || meta.ino() != now.ino() || meta.dev() != now.dev() {
            return Err(Error::Conflict(format!(
                "{}: the file changed while sesstree was working; nothing was written (run the command again)",
                self.path.display()
            )));
        }
        Ok(())
    }

    /// Appends complete lines (each without its newline) in one write, then syncs. A torn last
    /// line gets a newline first so no entry is glued to it.
    pub fn append(&self, session: &Session, lines: &[Vec<u8>]) -> Result<()> {
        self.check_fresh(session)?;
        let mut buf = Vec::new();
        if !session.ends_with_newline && session.file_len > 0 {
            buf.push(b'\n');
        }
        for line in lines {
            buf.extend_from_slice(line);
            buf.push(b'\n');
        }
        let old_len = session.file_len;
        let result = (&self.file).write_all(&buf).and_then(|()| self.file.sync_data());
        if let Err(e) = result {
            // Leave the file as it was: cut off whatever part of the write landed.
            let _ = self.file.set_len(old_len);
            let _ = self.file.sync_data();
            return Err(Error::io(&self.path, e));
        }
        Ok(())
    }

    /// Appends lines, then overwrites `bytes` at `offset` in place (the 256-byte title slot),
    /// then syncs. The slot keeps its size, so no other byte moves.
    pub fn append_and_patch(
        &self,
        session: &Session,
        lines: &[Vec<u8>],
        offset: u64,
        bytes: &[u8],
    ) -> Result<()> {
        let old = session.read_range(offset, bytes.len() as u64)?;
        self.append(session, lines)?;
        let patch = |data: &[u8]| {
            // A separate handle: writes on an append handle always go to the end.
            let f = OpenOptions::new().write(true).open(&self.real)?;
            f.write_all_at(data, offset)?;
            f.sync_data()
        };
        if let Err(e) = patch(bytes) {
            let _ = patch(&old);
            let _ = self.file.set_len(session.file_len);
            return Err(Error::io(&self.path, e));
        }
        Ok(())
    }

    /// Replaces the whole file with new contents, atomically (temporary file, sync, rename),
    /// keeping its permissions. Used when bytes must move (a title slot added in front).
    pub fn replace(&self, session: &Session, contents: &[u8]) -> Result<()> {
        self.splice(session, contents, session.file_len, &[])
    }

    /// Rewrites the file atomically as `head`, then the file's own bytes from `keep_from` to
    /// the end (copied, never parsed), then `tail`; the permissions are kept. The old bytes
    /// are streamed, so a large file is never held in memory.
    ///
    /// The freshness check comes after the temporary file is written and synced, right before
    /// the rename: that leaves the agents (which do not lock) the shortest window in which an
    /// append of theirs could be lost.
    pub fn splice(
        &self,
        session: &Session,
        head: &[u8],
        keep_from: u64,
        tail: &[u8],
    ) -> Result<()> {
        self.check_fresh(session)?;
        let perms = self.file.metadata().map_err(|e| Error::io(&self.path, e))?.permissions();
        let mut tmp = temp_in(&self.real, head, Some(perms))?;
        let io = |e| Error::io(&self.path, e);
        tmp.seek(SeekFrom::End(0)).map_err(io)?;
        let mut offset = keep_from.min(session.file_len);
        let mut buf = vec![0; 1 << 20];
        while offset < session.file_len {
            let n = buf.len().min((session.file_len - offset) as usize);
            self.file.read_exact_at(&mut buf[..n], offset).map_err(io)?;
            tmp.write_all(&buf[..n]).map_err(io)?;
            offset += n as u64;
        }
        tmp.write_all(tail).map_err(io)?;
        tmp.as_file().sync_all().map_err(io)?;
        self.check_fresh(session)?;
        tmp.persist(&self.real).map_err(|e| Error::io(&self.path, e.error))?;
        sync_dir(&self.real);
        Ok(())
    }

    /// Like [`Locked::replace`], but first keeps the current contents as `backup`, a new file
    /// (an existing one is a conflict unless `force`). If the replace fails, the backup is
    /// removed again: a failed command leaves nothing behind.
    pub fn replace_keeping(
        &self,
        session: &Session,
        contents: &[u8],
        backup: &Path,
        force: bool,
    ) -> Result<()> {
        self.check_fresh(session)?;
        let original = session.read_range(0, session.file_len)?;
        write_new(backup, &original, Some(&self.path), force)?;
        if let Err(e) = self.replace(session, contents) {
            let _ = std::fs::remove_file(backup);
            return Err(e);
        }
        Ok(())
    }
}

/// Whether two paths name the same existing file (same device and inode), so a command can
/// refuse to write its output over its input.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Writes a new file atomically: a temporary file in the same directory, synced, renamed into
/// place. An existing target is refused (conflict) unless `force`; a symlink or a directory is
/// always refused. `like` gives the permissions to copy (never wider than the source's).
pub fn write_new(path: &Path, contents: &[u8], like: Option<&Path>, force: bool) -> Result<()> {
    write_new_with(path, like, force, |out| out.write_all(contents).map_err(|e| Error::io(path, e)))
}

/// [`write_new`] for contents too large to hold at once: `fill` streams them into the
/// temporary file (through a buffer). When `fill` fails, the temporary file is removed and
/// nothing appears at `path`; `fill` maps its own write errors (usually to `Error::io(path, e)`).
pub fn write_new_with(
    path: &Path,
    like: Option<&Path>,
    force: bool,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    check_target(path, force)?;
    let perms = match like {
        Some(src) => {
            let mode = std::fs::metadata(src).map_err(|e| Error::io(src, e))?.permissions().mode();
            Some(Permissions::from_mode(mode & 0o666))
        }
        None => None,
    };
    let tmp = temp_with(path, perms, fill)?;
    if force {
        tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                exists(path)
            } else {
                Error::io(path, e.error)
            }
        })?;
    }
    sync_dir(path);
    Ok(())
}

/// Refuses a target that is a directory or a symlink, and an existing one unless `force`.
/// Checked before anything is written, so a refused command costs nothing; the final rename
/// checks again (noclobber), since the target may appear meanwhile.
fn check_target(path: &Path, force: bool) -> Result<()> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.is_dir() {
            return Err(Error::Usage(format!("{}: is a directory", path.display())));
        }
        if meta.file_type().is_symlink() {
            return Err(Error::Usage(format!(
                "{}: is a symbolic link; give the real path",
                path.display()
            )));
        }
        if !force {
            return Err(exists(path));
        }
    }
    Ok(())
}

fn exists(path: &Path) -> Error {
    Error::Conflict(format!("{}: already exists (use --force to overwrite)", path.display()))
}

/// A synced temporary file next to `path` holding `contents`.
fn temp_in(
    path: &Path,
    contents: &[u8],
    perms: Option<Permissions>,
) -> Result<tempfile::NamedTempFile> {
    temp_with(path, perms, |out| out.write_all(contents).map_err(|e| Error::io(path, e)))
}

/// A synced temporary file next to `path` filled by `fill`; removed again if anything fails.
fn temp_with(
    path: &Path,
    perms: Option<Permissions>,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".sesstree-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    let io = |e| Error::io(path, e);
    if let Some(p) = perms {
        tmp.as_file().set_permissions(p).map_err(io)?;
    }
    {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        fill(&mut out)?;
        out.flush().map_err(io)?;
    }
    tmp.as_file().sync_all().map_err(io)?;
    tmp.as_file_mut().seek(SeekFrom::Start(0)).map_err(io)?;
    Ok(tmp)
}

/// Syncs the directory so a rename survives a crash; best effort.
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#;

    #[test]
    fn append_adds_lines_and_steps_over_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, format!("{HEADER}\n{{\"type\":\"mess")).unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        locked.append(&session, &[b"{\"a\":1}".to_vec()]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{HEADER}\n{{\"type\":\"mess\n{{\"a\":1}}\n"));
    }

    #[test]
    fn a_changed_file_is_a_conflict_and_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, format!("{HEADER}\n")).unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"{}\n").unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = locked.append(&session, &[b"{}".to_vec()]).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn append_and_patch_changes_only_the_patched_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, format!("AAAA\n{HEADER}\n")).unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = Session::load(&path).unwrap();
        locked.append_and_patch(&session, &[b"{}".to_vec()], 0, b"BBBB").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("BBBB\n{HEADER}\n{{}}\n"));
    }

    #[test]
    fn a_changed_file_stops_patches_and_rewrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, format!("{HEADER}\n")).unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"{}\n").unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = locked.append_and_patch(&session, &[b"{}".to_vec()], 0, b"X").unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
        let err = locked.splice(&session, b"head\n", 0, b"tail\n").unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn splice_keeps_the_old_bytes_between_head_and_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, format!("\u{feff}{HEADER}\n{{\"torn")).unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o600)).unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        locked.splice(&session, b"slot\n", 3, b"\n{}\n").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("slot\n{HEADER}\n{{\"torn\n{{}}\n"));
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn oh_my_pis_gate_is_locked_when_it_is_there_and_never_made() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, "x\n").unwrap();
        let gate = dir.path().join(".s.jsonl.lock.os");
        // No gate: none is made.
        drop(lock(&path, Duration::from_secs(1)).unwrap());
        assert!(!gate.exists());
        // A gate oh-my-pi holds: the session is in use.
        std::fs::write(&gate, "").unwrap();
        let held = File::open(&gate).unwrap();
        held.lock().unwrap();
        let err = lock(&path, Duration::from_millis(20)).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)), "{err}");
        assert!(err.to_string().contains("oh-my-pi has this session open"), "{err}");
        // Released: taken, held while the session's lock is, and left in place.
        held.unlock().unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        assert!(File::open(&gate).unwrap().try_lock().is_err());
        drop(locked);
        assert!(File::open(&gate).unwrap().try_lock().is_ok());
    }

    #[test]
    fn the_lock_is_exclusive() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, format!("{HEADER}\n")).unwrap();
        let _held = lock(&path, Duration::from_secs(1)).unwrap();
        let err = lock(&path, Duration::from_millis(20)).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
    }

    #[test]
    fn writers_refuse_what_they_cannot_build_on() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [
            ("", "Empty"),
            ("{\"type\":\"message\",\"id\":\"a\"}\n", "NoHeader"),
            ("{\"type\":\"session\",\"version\":9,\"id\":\"s\"}\n", "TooNew"),
            ("{\"type\":\"session\",\"id\":\"s\"}\n", "NeedsMigration"),
        ];
        for (text, want) in cases {
            let path = dir.path().join("c.jsonl");
            std::fs::write(&path, text).unwrap();
            let err = lock(&path, Duration::from_secs(1)).unwrap().load().unwrap_err();
            assert!(format!("{err:?}").starts_with(want), "{want}: {err:?}");
        }
    }

    #[test]
    fn write_new_never_clobbers_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.jsonl");
        write_new(&path, b"one\n", None, false).unwrap();
        assert!(matches!(write_new(&path, b"two\n", None, false), Err(Error::Conflict(_))));
        assert_eq!(std::fs::read(&path).unwrap(), b"one\n");
        write_new(&path, b"two\n", None, true).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two\n");
        assert!(matches!(write_new(dir.path(), b"x", None, true), Err(Error::Usage(_))));
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(matches!(write_new(&link, b"x", None, true), Err(Error::Usage(_))));
    }

    #[test]
    fn replace_keeping_leaves_a_backup_and_refuses_to_clobber_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let bak = dir.path().join("s.jsonl.bak");
        std::fs::write(&path, format!("{HEADER}\n")).unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        locked.replace_keeping(&session, b"new\n", &bak, false).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        assert_eq!(std::fs::read_to_string(&bak).unwrap(), format!("{HEADER}\n"));
        assert!(same_file(&path, &path) && !same_file(&path, &bak));

        std::fs::write(&path, format!("{HEADER}\n")).unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        let err = locked.replace_keeping(&session, b"x\n", &bak, false).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{HEADER}\n"));
    }

    #[test]
    fn write_new_with_streams_and_leaves_nothing_on_failure() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.jsonl");
        write_new_with(&path, None, false, |out| {
            for part in [&b"one\n"[..], b"two\n"] {
                out.write_all(part).map_err(|e| Error::io("n", e))?;
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one\ntwo\n");

        let failed = dir.path().join("f.jsonl");
        let err = write_new_with(&failed, None, false, |out| {
            out.write_all(b"half").map_err(|e| Error::io("f", e))?;
            Err(Error::Failed("stop".into()))
        })
        .unwrap_err();
        assert!(matches!(err, Error::Failed(_)));
        let left: Vec<_> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("n.jsonl")], "no target, no temporary file");

        let mut called = false;
        let err = write_new_with(&path, None, false, |_| {
            called = true;
            Ok(())
        })
        .unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
        assert!(!called, "an existing target is refused before anything is written");
    }

    #[test]
    fn new_files_copy_the_source_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src.jsonl");
        std::fs::write(&src, b"x").unwrap();
        std::fs::set_permissions(&src, Permissions::from_mode(0o640)).unwrap();
        let dst = dir.path().join("dst.jsonl");
        write_new(&dst, b"y", Some(&src), false).unwrap();
        assert_eq!(std::fs::metadata(&dst).unwrap().permissions().mode() & 0o777, 0o640);
    }
}
