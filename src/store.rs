//! The only code that writes session files (SPEC §7).
//!
//! Appends take an exclusive advisory lock (on Windows, where locks are mandatory, on a file
//! beside the session: `sidecar_lock`), load and check the file under it, and write all new
//! lines with one `write` on an append handle, then `fsync`. New and rewritten files go to a
//! temporary file in the same directory, are synced, and are renamed into place. A write that
//! fails half-way is cut back to the old length, so a failed command leaves the file byte for
//! byte as it was.
//!
//! Every append and every rename also takes oh-my-pi's publish lock beside the session
//! (`Gate`): for that short moment only, around the freshness check and the write. Under it
//! the file's length and identity are checked again: if anything was appended since it was
//! loaded (pi takes no lock), nothing is written and the command fails with a conflict.
//!
//! A temporary file is named `.sesstree-<pid>-<random>.tmp`. While it is written it is listed
//! here, so that a signal handler can remove it ([`abandon_writes`]) before the process exits;
//! one left by a process that was killed outright (SIGKILL, a crash, a power cut) is removed by
//! the next write into its directory once it is stale (`is_stale_temporary`). Lines appended to
//! another file ahead of a rewrite ([`append_pending`]) are listed the same way, and cut off
//! again unless the rewrite's rename finishes.
//!
//! Before either, a writer that was told where oh-my-pi keeps its leases
//! ([`Locked::refusing_open`]) looks whether an oh-my-pi process has the session open
//! ([`crate::lease`]): then it writes nothing, and the command fails with a conflict naming
//! that process.

use std::fs::{File, OpenOptions, Permissions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};
use crate::platform::{file_id, owner_only};
use crate::session::Session;

/// How long a new file's rename waits for oh-my-pi's publish lock ([`write_new`]).
pub const GATE_TIMEOUT: Duration = Duration::from_secs(10);

/// An exclusive advisory lock on a session file, held until dropped.
#[derive(Debug)]
pub struct Locked {
    /// The session file, open to read and append; closed by a rewrite ([`Locked::splice`]),
    /// since Windows renames nothing over an open file (and the handle would name the old one).
    file: std::sync::Mutex<Option<File>>,
    /// The locked handle: a duplicate of `file`, or on Windows [`sidecar_lock`].
    _lock: File,
    /// The path as the user gave it, for messages.
    path: PathBuf,
    /// The file itself (symlinks resolved): every read, write and rename goes here, so a
    /// rewrite replaces the session file and never a symlink pointing at it.
    real: PathBuf,
    /// How long a write waits for oh-my-pi's publish lock ([`Gate`]).
    timeout: Duration,
    /// Where oh-my-pi's ownership leases live, when a write must not go into a session an
    /// oh-my-pi process has open; `None` writes either way.
    leases: Option<crate::lease::LeaseDirs>,
}

/// Locks `path` for writing, waiting up to `timeout` for another sesstree to finish.
///
/// The lock is on an open file, not on a path. A writer that held it may have replaced the
/// file (an atomic rewrite renames a new file over the old one); the lock then taken belongs
/// to the old, unlinked file. So once locked, the handle must still be the file at the path,
/// else it is reopened and locked again, within the same `timeout`.
///
/// This lock only keeps sesstrees apart. The agents never look at it: each write also takes
/// oh-my-pi's publish lock (`Gate`), for the write only.
pub fn lock(path: &Path, timeout: Duration) -> Result<Locked> {
    refuse_stdin(path)?;
    let real = crate::platform::canonicalize(path).map_err(|e| Error::io(path, e))?;
    let start = Instant::now();
    let held = || {
        Error::Conflict(format!(
            "{}: another process holds the lock (waited {:.1} s)",
            path.display(),
            timeout.as_secs_f64()
        ))
    };
    let io = |e| Error::io(path, e);
    let open = || OpenOptions::new().read(true).append(true).open(&real).map_err(io);
    loop {
        // Windows renames nothing over an open file: there the session file is opened only
        // once the lock is held, so that a writer waiting for it never fails another's rewrite.
        let (file, lock) = if cfg!(windows) {
            let lock = sidecar_lock(&real).map_err(io)?;
            if !wait_lock(&lock, start + timeout, 5).map_err(io)? {
                return Err(held());
            }
            (open()?, lock)
        } else {
            let file = open()?;
            let lock = file.try_clone().map_err(io)?;
            if !wait_lock(&lock, start + timeout, 5).map_err(io)? {
                return Err(held());
            }
            (file, lock)
        };
        let ours = file.metadata().map_err(|e| Error::io(path, e))?;
        let now = std::fs::metadata(&real).map_err(|e| Error::io(path, e))?;
        if file_id(&ours) == file_id(&now) {
            let path = path.to_path_buf();
            let file = std::sync::Mutex::new(Some(file));
            return Ok(Locked { file, _lock: lock, path, real, timeout, leases: None });
        }
        // Replaced while we waited: the lock on the old file guards nothing.
        if start.elapsed() >= timeout {
            return Err(held());
        }
    }
}

/// The handle whose lock keeps sesstrees apart on Windows, for the session file at `real`.
/// On Unix the lock is on the session file itself (a duplicate handle shares its `flock`): it
/// is advisory, and the agents read and write the file as if it were not there. On Windows a
/// lock (`LockFileEx`) is mandatory: no other handle, an agent's or one of our own reads, could
/// read the locked file. There the lock is on `.<name>.sesstree-lock` beside it, made if
/// missing and never removed (removing it could let two holders lock two files), and the
/// session file is never locked.
fn sidecar_lock(real: &Path) -> std::io::Result<File> {
    let path = sidecar(real, ".sesstree-lock").ok_or(std::io::ErrorKind::InvalidInput)?;
    owner_only(OpenOptions::new().read(true).write(true).create(true).truncate(false)).open(path)
}

/// Takes an exclusive `flock` on `file`, retrying every `pause_ms` until `deadline`; `false`
/// when it is still held then.
fn wait_lock(file: &File, deadline: Instant, pause_ms: u64) -> std::io::Result<bool> {
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(pause_ms));
            }
            Err(std::fs::TryLockError::WouldBlock) => return Ok(false),
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

/// What a write under the [`Gate`] does to the session file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WriteKind {
    /// Lines added at the end (and a title slot patched in place).
    Append,
    /// A new file renamed over the path.
    Rename,
}

/// oh-my-pi's publish lock for one session file, held for one write (CHANGES O2, R6, as
/// `FileSessionStorage` in oh-my-pi's `session-storage.ts` takes it):
///
/// * the gate, oh-my-pi's native lock on the path `.<name>.lock.os` beside the file: on
///   Linux an abstract socket named after that path ([`crate::lease`]; oh-my-pi's spelling of
///   the path is not known, so the name of the path as given and of the real path are both
///   taken), elsewhere an exclusive `flock` on it. The `flock` is taken on Linux too, for the
///   sesstrees before this one: the file is made if missing and never deleted (unlinking a
///   `flock` file could let two holders lock two inodes);
/// * then the lockfile `.<name>.lock`, made exclusively holding `<pid>:<epoch-ms>`, and
///   removed again when the write is done. oh-my-pi takes it around every rename; an append
///   takes it only when one is already there (an older oh-my-pi, which takes no gate, is
///   publishing). A lockfile whose process is dead, or a malformed one older than 500 ms,
///   is stale and taken over.
///
/// Both are waited for until `timeout` has passed, then the write is a conflict.
#[derive(Debug)]
struct Gate {
    /// The locked gate; the lock goes with the handle.
    _gate: File,
    /// The gate's abstract sockets (Linux), bound while held.
    _sockets: Vec<crate::lease::NativeSocket>,
    /// The lockfile this write made, removed on drop.
    claim: Option<PathBuf>,
}

/// `.<name><suffix>` beside `real`.
fn sidecar(real: &Path, suffix: &str) -> Option<PathBuf> {
    let mut name = std::ffi::OsString::from(".");
    name.push(real.file_name()?);
    name.push(suffix);
    Some(real.with_file_name(name))
}

/// The gate's path as oh-my-pi spells it for the file at `path` (as given) and at `real`
/// (`path.join(dirname, ".<name>.lock") + ".os"`, made absolute): the text its native lock
/// is named after.
fn gate_names(path: &Path, real: &Path) -> Vec<String> {
    let mut names: Vec<String> = [path, real]
        .into_iter()
        .filter_map(|file| crate::lease::beside(file, ".lock.os"))
        .collect();
    names.dedup();
    names
}

/// How old a malformed lockfile must be before it counts as a crash's leftover (oh-my-pi's
/// own wait for its publish lock).
const STALE_MALFORMED: Duration = Duration::from_millis(500);

impl Gate {
    /// Takes the publish lock of `real` for a write of kind `write`; `path` names it in
    /// messages.
    fn take(path: &Path, real: &Path, write: WriteKind, timeout: Duration) -> Result<Gate> {
        let start = Instant::now();
        let (Some(gate_path), Some(lock_path)) =
            (sidecar(real, ".lock.os"), sidecar(real, ".lock"))
        else {
            return Err(Error::Usage(format!("{}: not a file name", path.display())));
        };
        let busy = |what: &Path| {
            Error::Conflict(format!(
                "{}: oh-my-pi is writing this session ({} is held; waited {:.1} s): run the \
                 command again",
                path.display(),
                what.display(),
                timeout.as_secs_f64()
            ))
        };
        let gate =
            owner_only(OpenOptions::new().read(true).write(true).create(true).truncate(false))
                .open(&gate_path)
                .map_err(|e| Error::io(&gate_path, e))?;
        if !wait_lock(&gate, start + timeout, 2).map_err(|e| Error::io(&gate_path, e))? {
            return Err(busy(&gate_path));
        }
        let names = gate_names(path, real);
        let sockets = loop {
            match crate::lease::take_sockets(&names).map_err(|e| Error::io(&gate_path, e))? {
                Some(sockets) => break sockets,
                None if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(2)),
                None => return Err(busy(&gate_path)),
            }
        };
        let mut held = Gate { _gate: gate, _sockets: sockets, claim: None };
        if write == WriteKind::Append && !lock_path.exists() {
            return Ok(held);
        }
        loop {
            if claim(&lock_path)? {
                held.claim = Some(lock_path);
                return Ok(held);
            }
            if steal_stale(&lock_path) {
                continue;
            }
            if start.elapsed() >= timeout {
                return Err(busy(&lock_path));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        // The lockfile goes first, while the gate is still held; the gate file stays.
        if let Some(claim) = self.claim.take() {
            let _ = std::fs::remove_file(claim);
        }
    }
}

/// Makes the lockfile at `lock_path` holding `<pid>:<epoch-ms>`; `false` when another holder
/// has it. The path must still name the file written (a stealer may have removed it).
fn claim(lock_path: &Path) -> Result<bool> {
    let mut file = match owner_only(OpenOptions::new().write(true).create_new(true)).open(lock_path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
        Err(e) => return Err(Error::io(lock_path, e)),
    };
    let ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let record = format!("{}:{ms}\n", std::process::id());
    let ours = match file.write_all(record.as_bytes()).and_then(|()| file.metadata()) {
        Ok(ours) => ours,
        Err(e) => {
            // Ours, and not to be left behind: a live pid in it would hold off every writer.
            let _ = std::fs::remove_file(lock_path);
            return Err(Error::io(lock_path, e));
        }
    };
    Ok(std::fs::metadata(lock_path).is_ok_and(|m| file_id(&m) == file_id(&ours)))
}

/// Removes a stale lockfile: its process is dead, or it is malformed and older than
/// [`STALE_MALFORMED`]. `true` when the lockfile is gone (removed here or by its holder).
fn steal_stale(lock_path: &Path) -> bool {
    let Ok(content) = std::fs::read_to_string(lock_path) else { return true };
    let pid = content
        .trim_end()
        .split_once(':')
        .filter(|(pid, ms)| {
            !pid.is_empty()
                && !ms.is_empty()
                && pid.bytes().chain(ms.bytes()).all(|b| b.is_ascii_digit())
        })
        .and_then(|(pid, _)| pid.parse::<u32>().ok())
        .filter(|&pid| pid > 0);
    let stale = match pid {
        Some(pid) => !crate::platform::process_alive(pid),
        None => std::fs::metadata(lock_path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_MALFORMED),
    };
    // Read again right before removing: another writer may have taken it over meanwhile.
    stale
        && std::fs::read_to_string(lock_path).is_ok_and(|now| now == content)
        && std::fs::remove_file(lock_path).is_ok()
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
    session.require_known_header()?;
    if session.is_v1() {
        return Err(Error::NeedsMigration { path: session.path.clone() });
    }
    Ok(())
}

impl Locked {
    /// This lock, whose writes refuse a session that an oh-my-pi process holds the lease of
    /// (leases kept in `dirs`): nothing is written, and the write fails with a conflict.
    pub fn refusing_open(self, dirs: crate::lease::LeaseDirs) -> Locked {
        Locked { leases: Some(dirs), ..self }
    }

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

    /// A handle of the session file (a duplicate, closed when dropped); a conflict once a
    /// rewrite has closed the file.
    fn file(&self) -> Result<File> {
        let file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match &*file {
            Some(file) => file.try_clone().map_err(|e| Error::io(&self.path, e)),
            None => Err(changed(&self.path)),
        }
    }

    /// Fails with a conflict when the file is no longer what `session` was loaded from: it
    /// grew or shrank, or the path now names another file.
    fn check_fresh(&self, session: &Session) -> Result<()> {
        let meta = self.file()?.metadata().map_err(|e| Error::io(&self.path, e))?;
        let now = std::fs::metadata(&self.real).map_err(|e| Error::io(&self.path, e))?;
        if meta.len() != session.file_len || file_id(&meta) != file_id(&now) {
            return Err(changed(&self.path));
        }
        Ok(())
    }

    /// What every write goes through before it touches the file: the refusal of a session
    /// that oh-my-pi has open ([`Locked::refusing_open`]), then oh-my-pi's publish lock.
    fn gate(&self, session: &Session, write: WriteKind) -> Result<Gate> {
        if let Some(dirs) = &self.leases {
            let id = session.header.as_ref().map(|h| h.id.as_str());
            if let Some(owner) = crate::lease::owner(dirs, id, &self.path, &self.real) {
                let who = owner
                    .pid
                    .map_or("its process could not be named".into(), |pid| format!("pid {pid}"));
                return Err(Error::Conflict(format!(
                    "{}: session is open in oh-my-pi ({who}); nothing was written (close it \
                     there, or give --even-if-open)",
                    self.path.display()
                )));
            }
        }
        Gate::take(&self.path, &self.real, write, self.timeout)
    }

    /// Appends complete lines (each without its newline) in one write, then syncs. A torn last
    /// line gets a newline first so no entry is glued to it.
    pub fn append(&self, session: &Session, lines: &[Vec<u8>]) -> Result<()> {
        let _gate = self.gate(session, WriteKind::Append)?;
        self.append_gated(session, lines)
    }

    /// [`Locked::append`] with the publish lock already held.
    fn append_gated(&self, session: &Session, lines: &[Vec<u8>]) -> Result<()> {
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
        let mut file = self.file()?;
        let result = file.write_all(&buf).and_then(|()| file.sync_data());
        if let Err(e) = result {
            // Leave the file as it was: cut off whatever part of the write landed.
            let _ = file.set_len(old_len);
            let _ = file.sync_data();
            return Err(Error::io(&self.path, e));
        }
        // For what an interrupt says ([`abandon_writes`]).
        unfinished().written += 1;
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
        let _gate = self.gate(session, WriteKind::Append)?;
        self.append_gated(session, lines)?;
        let patch = |data: &[u8]| {
            // A separate handle: writes on an append handle always go to the end.
            let f = OpenOptions::new().write(true).open(&self.real)?;
            crate::platform::write_all_at(&f, data, offset)?;
            f.sync_data()
        };
        if let Err(e) = patch(bytes) {
            let _ = patch(&old);
            let _ = self.file().map(|file| file.set_len(session.file_len));
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
        self.splice_finishing(session, head, keep_from, tail, None)
    }

    /// [`Locked::splice`]; its rename also finishes `finishes` (a file [`reopen`]ed until then).
    fn splice_finishing(
        &self,
        session: &Session,
        head: &[u8],
        keep_from: u64,
        tail: &[u8],
        finishes: Option<&Path>,
    ) -> Result<()> {
        let io = |e| Error::io(&self.path, e);
        self.rewrite_finishing(session, finishes, |out| {
            out.write_all(head).map_err(io)?;
            self.copy_range(session, keep_from, session.file_len, out)?;
            out.write_all(tail).map_err(io)
        })
    }

    /// Streams the file's own bytes from `start` to `end` into `out` (never past the length
    /// it was loaded with), a megabyte at a time.
    fn copy_range(
        &self,
        session: &Session,
        start: u64,
        end: u64,
        out: &mut dyn Write,
    ) -> Result<()> {
        let io = |e| Error::io(&self.path, e);
        let end = end.min(session.file_len);
        let mut offset = start.min(end);
        let file = self.file()?;
        let mut buf = vec![0; (end - offset).min(1 << 20) as usize];
        while offset < end {
            let n = buf.len().min((end - offset) as usize);
            crate::platform::read_exact_at(&file, &mut buf[..n], offset).map_err(io)?;
            out.write_all(&buf[..n]).map_err(io)?;
            offset += n as u64;
        }
        Ok(())
    }

    /// Replaces the whole file atomically with what `fill` writes, keeping the permissions. With `backup`, the
    /// current contents are first kept there as in [`Locked::replace_keeping`], streamed
    /// rather than held in memory.
    pub fn rewrite_with(
        &self,
        session: &Session,
        backup: Option<(&Path, bool)>,
        fill: impl FnOnce(&mut dyn Write) -> Result<()>,
    ) -> Result<()> {
        let Some((backup, force)) = backup else {
            return self.rewrite_finishing(session, None, fill);
        };
        self.check_fresh(session)?;
        write_new_with(backup, Some(&self.path), force, |out| {
            self.copy_range(session, 0, session.file_len, out)
        })?;
        reopen(backup);
        if let Err(e) = self.rewrite_finishing(session, Some(backup), fill) {
            discard(backup);
            return Err(e);
        }
        Ok(())
    }

    /// [`Locked::rewrite_with`] after an [`append_pending`]: the rename that replaces the file
    /// keeps the lines appended to `appended` too; if the rewrite fails, or a signal stops the
    /// process first, they are cut off again.
    pub fn rewrite_after(
        &self,
        session: &Session,
        appended: Appended,
        fill: impl FnOnce(&mut dyn Write) -> Result<()>,
    ) -> Result<()> {
        self.rewrite_finishing(session, Some(&appended.path), fill)
    }

    /// The atomic rewrite under every rewrite: `fill` writes the temporary file; the freshness
    /// check comes after it is written and synced, right before the rename, which also
    /// finishes `finishes` (a file [`reopen`]ed until then).
    fn rewrite_finishing(
        &self,
        session: &Session,
        finishes: Option<&Path>,
        fill: impl FnOnce(&mut dyn Write) -> Result<()>,
    ) -> Result<()> {
        self.check_fresh(session)?;
        let io = |e| Error::io(&self.path, e);
        let perms = self.file()?.metadata().map_err(io)?.permissions();
        let tmp = temp_with(&self.real, Mode::Keep(perms), fill)?;
        let gate = self.gate(session, WriteKind::Rename)?;
        self.check_fresh(session)?;
        self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        session.close_file();
        tmp.persist(finishes, |t| {
            t.persist(&self.real).map(drop).map_err(|e| match e.error.kind() {
                // Another program has the file open: Windows replaces no open file.
                std::io::ErrorKind::PermissionDenied if cfg!(windows) => Error::Conflict(format!(
                    "{}: another program has the file open; nothing was written (close it \
                     there, then run the command again)",
                    self.path.display()
                )),
                _ => Error::io(&self.path, e.error),
            })
        })?;
        drop(gate);
        sync_dir(&self.real);
        Ok(())
    }

    /// Like [`Locked::replace`], but first keeps the current contents as `backup`, a new file
    /// (an existing one is a conflict unless `force`). If the replace fails, or a signal stops
    /// the process before it is done ([`abandon_writes`]), the backup is removed again: a
    /// failed command leaves nothing behind.
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
        reopen(backup);
        if let Err(e) =
            self.splice_finishing(session, contents, session.file_len, &[], Some(backup))
        {
            discard(backup);
            return Err(e);
        }
        Ok(())
    }
}

/// The conflict of a file that changed under the lock.
fn changed(path: &Path) -> Error {
    Error::Conflict(format!(
        "{}: the file changed while sesstree was working; nothing was written (run the command again)",
        path.display()
    ))
}

/// Whether two paths name the same existing file (same device and inode), so a command can
/// refuse to write its output over its input.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => file_id(&x) == file_id(&y),
        _ => false,
    }
}

/// Writes a new file atomically: a temporary file in the same directory, synced, renamed into
/// place. An existing target is refused (conflict) unless `force`; a symlink or a directory is
/// always refused. The new file holds what `like` holds, so it gets the mode `cp` gives a copy:
/// `like`'s, less the umask, never wider than its source. Without a source (a session read from
/// standard input) nothing says how private it is: 0600.
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
    write_new_finishing(path, like, force, None, fill)
}

/// [`write_new_with`] after an [`append_pending`]: the rename that puts the new file in place
/// keeps the lines appended to `appended` too; if the write fails, or a signal stops the
/// process first, they are cut off again.
pub fn write_new_after(
    appended: Appended,
    path: &Path,
    like: Option<&Path>,
    force: bool,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    write_new_finishing(path, like, force, Some(&appended.path), fill)
}

/// Lines appended to a file ahead of the write they go with (`prune --save` keeps there what
/// the prune removes): kept only when that write finishes ([`Locked::rewrite_after`],
/// [`write_new_after`]). Until then a signal ([`abandon_writes`]) cuts the file back to its
/// old length, or removes it when the append made it; so does dropping it unfinished (the
/// write failed).
#[derive(Debug)]
#[must_use = "the lines stay pending until a write finishes them"]
pub struct Appended {
    path: PathBuf,
}

impl Appended {
    /// Keeps the lines with no write to go with them.
    pub fn keep(self) {
        let mut list = unfinished();
        list.paths.retain(|u| u.path != self.path);
        list.written += 1;
    }
}

impl Drop for Appended {
    fn drop(&mut self) {
        // Finished or kept, it is no longer listed, and this does nothing.
        discard(&self.path);
    }
}

/// Appends what `fill` writes to `path` (made when missing; `fill` is told whether the file is
/// empty) and syncs it, pending the write it goes with ([`Appended`]). A failed append is cut
/// back at once. A signal waits for the append to end, then cuts it back: it never stops one
/// half-way, with part of the lines on disk.
pub fn append_pending(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write, bool) -> Result<()>,
) -> Result<Appended> {
    let io = |e| Error::io(path, e);
    let mut list = unfinished();
    let (file, cut_to) = match OpenOptions::new().append(true).create_new(true).open(path) {
        Ok(file) => (file, None),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let file = OpenOptions::new().append(true).open(path).map_err(io)?;
            let len = file.metadata().map_err(io)?.len();
            (file, Some(len))
        }
        Err(e) => return Err(io(e)),
    };
    let undo = Undo { path: path.to_path_buf(), cut_to };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, &file);
    let written = fill(&mut out, cut_to.unwrap_or(0) == 0)
        .and_then(|()| out.flush().map_err(io))
        .and_then(|()| file.sync_data().map_err(io));
    drop(out);
    if let Err(e) = written {
        undo.run();
        return Err(e);
    }
    list.paths.push(undo);
    Ok(Appended { path: path.to_path_buf() })
}

fn write_new_finishing(
    path: &Path,
    like: Option<&Path>,
    force: bool,
    finishes: Option<&Path>,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    check_target(path, force)?;
    let like = like.map(|src| std::fs::metadata(src).map_err(|e| Error::io(src, e))).transpose()?;
    let mode = crate::platform::copy_permissions(like.as_ref());
    let tmp = temp_with(path, Mode::New(mode), fill)?;
    // A session file (not a backup) renamed over an existing one is renamed under oh-my-pi's
    // publish lock; a new file (noclobber) replaces nothing another writer could write.
    let replaces_session = force && path.extension().is_some_and(|e| e == "jsonl") && path.exists();
    let gate = replaces_session
        .then(|| Gate::take(path, path, WriteKind::Rename, GATE_TIMEOUT))
        .transpose()?;
    tmp.persist(finishes, |t| {
        if force {
            t.persist(path).map(drop).map_err(|e| Error::io(path, e.error))
        } else {
            t.persist_noclobber(path).map(drop).map_err(|e| {
                if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                    exists(path)
                } else {
                    Error::io(path, e.error)
                }
            })
        }
    })?;
    drop(gate);
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

/// The mode of a temporary file.
enum Mode {
    /// Exactly these permissions (a rewrite keeps the file's own).
    Keep(Permissions),
    /// These permissions less the umask (a new file), or what the directory hands down.
    New(Option<Permissions>),
}

/// A synced temporary file next to `path` filled by `fill`; removed again if anything fails.
/// Stale temporary files of other processes in the same directory are removed first.
fn temp_with(
    path: &Path,
    mode: Mode,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<Temporary> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    sweep_stale_temporaries(dir);
    let mut builder = tempfile::Builder::new();
    let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    if let Mode::New(Some(permissions)) = &mode {
        builder.permissions(permissions.clone());
    }
    let mut tmp = Temporary::create(|| builder.tempfile_in(dir).map_err(|e| Error::io(dir, e)))?;
    let io = |e| Error::io(path, e);
    let file = tmp.file();
    if let Mode::Keep(p) = mode {
        file.as_file().set_permissions(p).map_err(io)?;
    }
    {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, file.as_file_mut());
        fill(&mut out)?;
        out.flush().map_err(io)?;
    }
    file.as_file().sync_all().map_err(io)?;
    Ok(tmp)
}

const TEMP_PREFIX: &str = ".sesstree-";
const TEMP_SUFFIX: &str = ".tmp";

/// How long a temporary file must have been left unchanged before another process may take it
/// for a leftover: a live writer changes it all the time, and renames it within seconds of its
/// last write (the publish lock waits at most [`GATE_TIMEOUT`]).
const STALE_TEMPORARY: Duration = Duration::from_secs(10 * 60);

/// The files an interrupt must put back (temporary files being written, a backup whose replace
/// is not done, lines appended ahead of a write), and how many files this process has written
/// for good.
struct Unfinished {
    paths: Vec<Undo>,
    written: usize,
}

/// A file to put back: removed, or cut back to the length it had before an append.
struct Undo {
    path: PathBuf,
    cut_to: Option<u64>,
}

impl Undo {
    /// Best effort: what cannot be undone stays.
    fn run(&self) {
        match self.cut_to {
            None => {
                let _ = std::fs::remove_file(&self.path);
            }
            Some(len) => {
                let file = OpenOptions::new().write(true).open(&self.path);
                let _ = file.and_then(|f| f.set_len(len).and_then(|()| f.sync_data()));
            }
        }
    }
}

static UNFINISHED: std::sync::Mutex<Unfinished> =
    std::sync::Mutex::new(Unfinished { paths: Vec::new(), written: 0 });

/// Lists `path`, a file just written, as unfinished again: until a rename finishes it, an
/// interrupt removes it.
fn reopen(path: &Path) {
    let mut list = unfinished();
    list.paths.push(Undo { path: path.to_path_buf(), cut_to: None });
    list.written = list.written.saturating_sub(1);
}

/// Puts back `path`, a [`reopen`]ed or [`append_pending`] file, and drops its listing.
fn discard(path: &Path) {
    let mut list = unfinished();
    list.paths.retain(|u| {
        let this = u.path == path;
        if this {
            u.run();
        }
        !this
    });
}

fn unfinished() -> std::sync::MutexGuard<'static, Unfinished> {
    UNFINISHED.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A temporary file listed in [`UNFINISHED`] from its creation until it is renamed into place
/// or removed.
struct Temporary(Option<tempfile::NamedTempFile>);

impl Temporary {
    /// Creates the file and lists it, in one step as far as [`abandon_writes`] can see.
    fn create(make: impl FnOnce() -> Result<tempfile::NamedTempFile>) -> Result<Temporary> {
        let mut list = unfinished();
        let file = make()?;
        list.paths.push(Undo { path: file.path().to_path_buf(), cut_to: None });
        Ok(Temporary(Some(file)))
    }

    fn file(&mut self) -> &mut tempfile::NamedTempFile {
        self.0.as_mut().expect("a temporary file is only taken by persist")
    }

    /// Renames the file into place with `rename`, as one step as far as [`abandon_writes`]
    /// can see; with it `finishes` (a [`reopen`]ed file) is done too.
    fn persist(
        mut self,
        finishes: Option<&Path>,
        rename: impl FnOnce(tempfile::NamedTempFile) -> Result<()>,
    ) -> Result<()> {
        let mut list = unfinished();
        let file = self.0.take().expect("a temporary file is persisted once");
        list.paths.retain(|u| u.path != file.path());
        rename(file)?;
        list.written += 1;
        if let Some(done) = finishes {
            list.paths.retain(|u| u.path != done);
            list.written += 1;
        }
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(file) = self.0.take() {
            let mut list = unfinished();
            list.paths.retain(|u| u.path != file.path());
            drop(file);
        }
    }
}

/// Removes every temporary file this process is writing (and a backup whose replace is not
/// done), and cuts off lines appended ahead of a write not done ([`append_pending`]), for a
/// signal handler that exits the process right after: from here on no write of this process
/// starts or finishes (they wait for ever). Returns whether this process has written a file for
/// good.
pub fn abandon_writes() -> bool {
    let mut list = unfinished();
    for undo in list.paths.drain(..) {
        undo.run();
    }
    let written = list.written > 0;
    std::mem::forget(list);
    written
}

/// Whether `name` in `dir` is a temporary file of sesstree's that nobody will finish: a regular
/// file named `.sesstree-<pid>-<random>.tmp` whose process is gone, unchanged for
/// [`STALE_TEMPORARY`]. A name without a pid (older sesstrees made them) counts by its age alone. The age also keeps a directory shared between machines safe, where the pid of another
/// machine's process means nothing here.
fn is_stale_temporary(dir: &Path, name: &std::ffi::OsStr) -> bool {
    let Some(middle) = name
        .to_str()
        .and_then(|n| n.strip_prefix(TEMP_PREFIX))
        .and_then(|n| n.strip_suffix(TEMP_SUFFIX))
    else {
        return false;
    };
    let owner_gone = match middle.split_once('-') {
        Some((pid, _)) => match pid.parse::<u32>() {
            Ok(pid) if pid > 0 => !crate::platform::process_alive(pid),
            _ => return false,
        },
        None => true,
    };
    owner_gone
        && std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| {
            m.is_file()
                && m.modified()
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > STALE_TEMPORARY)
        })
}

/// Removes the stale temporary files in `dir` (see [`is_stale_temporary`]); best effort.
fn sweep_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if is_stale_temporary(dir, &name) {
            let _ = std::fs::remove_file(dir.join(&name));
        }
    }
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
    #[cfg(unix)]
    use std::os::unix::fs::PermissionsExt;

    const HEADER: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#;

    /// A directory holding `s.jsonl` with `text`.
    fn session_file(text: impl AsRef<[u8]>) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn append_adds_lines_and_steps_over_a_torn_line() {
        let (_dir, path) = session_file(format!("{HEADER}\n{{\"type\":\"mess"));
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        locked.append(&session, &[b"{\"a\":1}".to_vec()]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{HEADER}\n{{\"type\":\"mess\n{{\"a\":1}}\n"));
    }

    #[test]
    fn append_and_patch_changes_only_the_patched_bytes() {
        let (_dir, path) = session_file(format!("AAAA\n{HEADER}\n"));
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = Session::load(&path).unwrap();
        locked.append_and_patch(&session, &[b"{}".to_vec()], 0, b"BBBB").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("BBBB\n{HEADER}\n{{}}\n"));
    }

    #[test]
    fn a_changed_file_stops_appends_patches_and_rewrites_and_is_untouched() {
        let (dir, path) = session_file(format!("{HEADER}\n"));
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"{}\n").unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = locked.append(&session, &[b"{}".to_vec()]).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
        let err = locked.append_and_patch(&session, &[b"{}".to_vec()], 0, b"X").unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
        let err = locked.splice(&session, b"head\n", 0, b"tail\n").unwrap_err();
        assert!(matches!(err, Error::Conflict(_)));
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let leftovers: Vec<_> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        // oh-my-pi's gate, made for the append, stays (and on Windows our lock's file); nothing
        // else does.
        let kept = if cfg!(windows) { 3 } else { 2 };
        assert_eq!(leftovers.len(), kept, "no temporary file is left behind: {leftovers:?}");
        assert!(dir.path().join(".s.jsonl.lock.os").exists());
    }

    #[test]
    fn splice_keeps_the_old_bytes_between_head_and_tail() {
        let (_dir, path) = session_file(format!("\u{feff}{HEADER}\n{{\"torn"));
        #[cfg(unix)]
        std::fs::set_permissions(&path, Permissions::from_mode(0o600)).unwrap();
        let locked = lock(&path, Duration::from_secs(1)).unwrap();
        let session = locked.load().unwrap();
        locked.splice(&session, b"slot\n", 3, b"\n{}\n").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("slot\n{HEADER}\n{{\"torn\n{{}}\n"));
        #[cfg(unix)]
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }

    /// A process id that is certainly not running: a child that has been waited for.
    fn dead_pid() -> u32 {
        let mut child = if cfg!(windows) {
            std::process::Command::new("cmd").args(["/C", "exit"]).spawn().unwrap()
        } else {
            std::process::Command::new("true").spawn().unwrap()
        };
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn every_write_takes_oh_my_pis_gate_and_leaves_it() {
        let (dir, path) = session_file(format!("{HEADER}\n"));
        let gate = dir.path().join(".s.jsonl.lock.os");
        let lockfile = dir.path().join(".s.jsonl.lock");
        // Locking alone touches neither sidecar: only a write takes them.
        let locked = lock(&path, Duration::from_millis(50)).unwrap();
        assert!(!gate.exists());
        // A held gate: the write waits, then is a conflict that writes nothing.
        std::fs::write(&gate, "").unwrap();
        let held = File::open(&gate).unwrap();
        held.lock().unwrap();
        let session = locked.load().unwrap();
        let err = locked.append(&session, &[b"{}".to_vec()]).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)), "{err}");
        assert!(err.to_string().contains("oh-my-pi is writing this session"), "{err}");
        let err = locked.splice(&session, b"", 0, b"{}\n").unwrap_err();
        assert!(matches!(err, Error::Conflict(_)), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{HEADER}\n"));
        // Released: written, the gate made before stays, no lockfile is left.
        drop(held);
        std::fs::remove_file(&gate).unwrap();
        locked.append(&session, &[b"{}".to_vec()]).unwrap();
        assert!(gate.exists(), "made if missing, never deleted");
        assert!(!lockfile.exists());
        assert!(File::open(&gate).unwrap().try_lock().is_ok(), "held for the write only");
        drop(session);
        let session = locked.load().unwrap();
        locked.splice(&session, b"", 0, b"{}\n").unwrap();
        assert!(gate.exists() && !lockfile.exists());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{HEADER}\n{{}}\n{{}}\n"));
        // A new session file replaces nothing: no gate. One renamed over a session takes it.
        write_new(&dir.path().join("n.jsonl"), b"x\n", None, false).unwrap();
        assert!(!dir.path().join(".n.jsonl.lock.os").exists());
        write_new(&dir.path().join("n.jsonl"), b"y\n", None, true).unwrap();
        assert!(dir.path().join(".n.jsonl.lock.os").exists());
    }

    /// On Linux oh-my-pi's gate is an abstract socket named after `.<name>.lock.os` (its
    /// native `FileLock`, 18.2.3 and later): no file, and no `flock` of it either.
    #[cfg(target_os = "linux")]
    #[test]
    fn on_linux_the_gate_is_oh_my_pis_abstract_socket() {
        use std::os::linux::net::SocketAddrExt;
        use std::os::unix::net::{SocketAddr, UnixDatagram};
        let (dir, path) = session_file(format!("{HEADER}\n"));
        let gate = dir.path().join(".s.jsonl.lock.os").display().to_string();
        let addr = SocketAddr::from_abstract_name(crate::lease::socket_name(&gate)).unwrap();
        let held = UnixDatagram::bind_addr(&addr).unwrap();
        let locked = lock(&path, Duration::from_millis(50)).unwrap();
        let session = locked.load().unwrap();
        let err = locked.append(&session, &[b"{}".to_vec()]).unwrap_err();
        assert!(err.to_string().contains("oh-my-pi is writing this session"), "{err}");
        let err = locked.splice(&session, b"", 0, b"{}\n").unwrap_err();
        assert!(matches!(err, Error::Conflict(_)), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{HEADER}\n"));
        drop(held);
        locked.append(&session, &[b"{}".to_vec()]).unwrap();
        assert!(UnixDatagram::bind_addr(&addr).is_ok(), "held for the write only");
    }

    #[test]
    #[cfg_attr(windows, ignore = "tells a dead process by tasklist, which lists none in Wine")]
    fn a_live_lockfile_holds_renames_and_appends_a_stale_one_is_taken_over() {
        let (dir, path) = session_file(format!("{HEADER}\n"));
        let lockfile = dir.path().join(".s.jsonl.lock");
        let locked = lock(&path, Duration::from_millis(50)).unwrap();
        let session = locked.load().unwrap();
        // A live holder (this process): an older oh-my-pi is publishing.
        let live = format!("{}:1700000000000\n", std::process::id());
        std::fs::write(&lockfile, &live).unwrap();
        let err = locked.splice(&session, b"", 0, b"{}\n").unwrap_err();
        assert!(err.to_string().contains(".s.jsonl.lock is held"), "{err}");
        let err = locked.append(&session, &[b"{}".to_vec()]).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)), "{err}");
        assert_eq!(std::fs::read_to_string(&lockfile).unwrap(), live, "not ours to remove");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{HEADER}\n"));
        // A dead holder's lockfile, and an old malformed one, are taken over and removed.
        for stale in [format!("{}:1700000000000\n", dead_pid()), "junk".to_string()] {
            std::fs::write(&lockfile, &stale).unwrap();
            let old = SystemTime::now() - Duration::from_secs(5);
            File::options().write(true).open(&lockfile).unwrap().set_modified(old).unwrap();
            let session = locked.load().unwrap();
            locked.append(&session, &[b"{}".to_vec()]).unwrap();
            assert!(!lockfile.exists(), "{stale}");
        }
        // A fresh malformed one may be a holder between making it and writing its record.
        std::fs::write(&lockfile, "").unwrap();
        let session = locked.load().unwrap();
        assert!(locked.append(&session, &[b"{}".to_vec()]).is_err());
    }

    #[test]
    fn the_lock_is_exclusive() {
        let (_dir, path) = session_file(format!("{HEADER}\n"));
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
        #[cfg(unix)]
        {
            let link = dir.path().join("link.jsonl");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            assert!(matches!(write_new(&link, b"x", None, true), Err(Error::Usage(_))));
        }
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
        drop((session, locked));

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

    #[cfg(unix)]
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
