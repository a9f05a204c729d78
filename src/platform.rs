//! What the file system and the process table offer differently on Unix and on Windows, each
//! in one function: a path's canonical spelling, reads and writes at an offset, a file's
//! identity, whether a process lives.

use std::fs::{File, Metadata, OpenOptions, Permissions};
use std::io::{ErrorKind, Result};
use std::path::{Path, PathBuf};

/// The absolute path of `path` with every symlink resolved, spelled as the system's own tools
/// (and the agents) spell it: on Windows without the verbatim prefix `\\?\` that
/// `std::fs::canonicalize` puts in front (`\\?\C:\x` is `C:\x`, `\\?\UNC\s\x` is `\\s\x`).
pub fn canonicalize(path: &Path) -> Result<PathBuf> {
    let real = std::fs::canonicalize(path)?;
    let text = real.to_string_lossy();
    if let Some(unc) = text.strip_prefix(r"\\?\UNC\") {
        return Ok(PathBuf::from(format!(r"\\{unc}")));
    }
    match text.strip_prefix(r"\\?\") {
        // A drive path; other verbatim forms (a volume GUID) have no plainer spelling.
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => Ok(PathBuf::from(rest)),
        _ => Ok(real),
    }
}

/// Reads from `offset` into `buf` until it is full or the file ends; returns how much was read.
/// The file's cursor is left alone on Unix and moved on Windows, so it must not matter.
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        match read_some_at(file, &mut buf[done..], offset + done as u64) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// Fills `buf` from `offset`; a file that ends first is an `UnexpectedEof` error.
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> Result<()> {
    if read_at(file, buf, offset)? < buf.len() {
        return Err(ErrorKind::UnexpectedEof.into());
    }
    Ok(())
}

/// Writes all of `buf` at `offset`.
pub(crate) fn write_all_at(file: &File, mut buf: &[u8], mut offset: u64) -> Result<()> {
    while !buf.is_empty() {
        match write_some_at(file, buf, offset) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => {
                buf = &buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(unix)]
fn read_some_at(file: &File, buf: &mut [u8], offset: u64) -> Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_some_at(file: &File, buf: &mut [u8], offset: u64) -> Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(unix)]
fn write_some_at(file: &File, buf: &[u8], offset: u64) -> Result<usize> {
    std::os::unix::fs::FileExt::write_at(file, buf, offset)
}

#[cfg(windows)]
fn write_some_at(file: &File, buf: &[u8], offset: u64) -> Result<usize> {
    std::os::windows::fs::FileExt::seek_write(file, buf, offset)
}

/// What tells one file from another, to notice a file replaced under an open handle (a rename
/// over its path) and two paths naming one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileId([u64; 3]);

/// The identity of the file `meta` describes: its device and inode on Unix. On Windows the
/// volume serial number and file index are not stable in std (Rust 1.89), so the identity is
/// what is: the creation time, the last write time and the length. A file renamed over the
/// path was created after the one it replaces, so it still differs; two distinct files alike
/// in all three count as one (then a command refuses what it would refuse for one file).
pub(crate) fn file_id(meta: &Metadata) -> FileId {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        FileId([meta.dev(), meta.ino(), 0])
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::MetadataExt;
        FileId([meta.creation_time(), meta.last_write_time(), meta.file_size()])
    }
}

/// `options` making a file only its owner may read and write: mode 0600 on Unix (less the
/// umask). Windows has no mode bits: a new file gets the access its directory hands down.
pub(crate) fn owner_only(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(options, 0o600);
    options
}

/// The permissions of a new file holding what the file `like` holds: the mode `cp` gives a
/// copy (`like`'s read and write bits, less the umask), 0600 without a source. `None` on
/// Windows, where a new file gets the access its directory hands down, as a copy does.
pub(crate) fn copy_permissions(like: Option<&Metadata>) -> Option<Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = like.map_or(0o600, |m| m.permissions().mode() & 0o666);
        Some(Permissions::from_mode(mode))
    }
    #[cfg(windows)]
    {
        let _ = like;
        None
    }
}

/// Whether process `pid` may still be running: `false` only when it certainly is not (as
/// oh-my-pi's `isPidAlive`, which fails closed). Unix asks with signal 0; Windows looks for
/// it in what `tasklist` lists, std having no call for it.
pub(crate) fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else { return true };
        let alive = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None);
        alive != Err(nix::errno::Errno::ESRCH)
    }
    #[cfg(windows)]
    {
        let listed = std::process::Command::new("tasklist")
            .args(["/FO", "CSV", "/NH"])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output();
        // `"name.exe","1234",...` per process; a tasklist that lists none (Wine's) knows
        // nothing.
        let Ok(out) = listed else { return true };
        let text = String::from_utf8_lossy(&out.stdout);
        let pids: Vec<&str> = text.lines().filter_map(|line| line.split(',').nth(1)).collect();
        !out.status.success() || pids.is_empty() || pids.contains(&format!("\"{pid}\"").as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn canonical_paths_are_spelled_plainly() {
        let dir = tempfile::tempdir().unwrap();
        let real = canonicalize(dir.path()).unwrap();
        assert!(real.is_absolute(), "{}", real.display());
        assert!(!real.to_string_lossy().starts_with(r"\\?\"), "{}", real.display());
        let same = |p: &Path| std::fs::canonicalize(p).unwrap();
        assert_eq!(same(&real), same(dir.path()));
    }

    #[test]
    fn reads_and_writes_at_offsets() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"0123456789").unwrap();
        let mut buf = [0; 4];
        read_exact_at(&file, &mut buf, 3).unwrap();
        assert_eq!(&buf, b"3456");
        write_all_at(&file, b"ab", 8).unwrap();
        let mut tail = [0; 5];
        assert_eq!(read_at(&file, &mut tail, 7).unwrap(), 3, "stops at the end");
        assert_eq!(&tail[..3], b"7ab");
        let err = read_exact_at(&file, &mut buf, 8).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    }

    #[test]
    fn identity_tells_a_replaced_file() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, "one").unwrap();
        let id = |p: &Path| file_id(&std::fs::metadata(p).unwrap());
        let open = File::open(&a).unwrap();
        let held = file_id(&open.metadata().unwrap());
        assert_eq!(held, id(&a));
        // Windows renames nothing over an open file.
        drop(open);
        // Later and longer, as a rewrite renamed into place is.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&b, "one two").unwrap();
        std::fs::rename(&b, &a).unwrap();
        assert_ne!(held, id(&a));
    }

    #[test]
    #[cfg_attr(windows, ignore = "Wine's tasklist lists no process")]
    fn this_process_lives() {
        assert!(process_alive(std::process::id()));
        // A child that was reaped is gone.
        let mut child = std::process::Command::new(if cfg!(windows) { "cmd" } else { "true" })
            .args(if cfg!(windows) { &["/C", "exit"][..] } else { &[][..] })
            .spawn()
            .unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!process_alive(pid));
    }
}
