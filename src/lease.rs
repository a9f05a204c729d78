//! oh-my-pi's ownership lease (CHANGES R6): whether another process has a session open.
//!
//! From 18.4.9 an oh-my-pi process that writes a session holds an OS lock for it until it
//! exits (or leaves the session), and another oh-my-pi that finds the lock held continues in a
//! new file. The lock is oh-my-pi's native `FileLock` (`crates/pi-natives/src/file_lock`) on a
//! lock path, a string:
//!
//! * 18.5.0 and later: `<owners>/<name>.lock`, keyed by the session id of the file's header
//!   (`tryAcquireSessionLease` in `session-storage.ts`; `<name>` is the id when it matches
//!   `[A-Za-z0-9_-]{1,128}`, else `h-` and its 64-bit wyhash in hex), `<owners>` being
//!   `~/<PI_CONFIG_DIR or .omp>/run/session-owners` for every profile, or
//!   `$XDG_STATE_HOME/omp/run/session-owners` (`getSessionOwnersDir` in `pi-utils/dirs`);
//! * 18.4.9 to 18.4.12: `.<file>.owner.lock` beside the session file, keyed by its path.
//!
//! On Linux the lock is an abstract Unix datagram socket named `omp-file-lock-` and two
//! seeded XXH64 digests of the lock path; no file appears. Elsewhere it is a `flock` on the
//! lock path itself. Both go when the holder exits, so a crashed oh-my-pi never leaves a
//! session locked.
//!
//! On Windows oh-my-pi (18.5.0 and later) keeps the lease in a named mutex, which safe Rust
//! cannot query, and the pinned oh-my-pi 18.2.3 keeps none: there no lease is ever found, and
//! writes go ahead as with `--even-if-open`.
//!
//! Nothing here takes the lease: a held socket name is found by connecting to it, a held
//! `flock` by failing to take it (and releasing it at once when it was free). The holder's
//! process id is looked up in `/proc` where there is one.
//!
//! oh-my-pi's publish lock around one write (`.<file>.lock.os`, [`crate::store`]) is the same
//! native lock on another path; `take_sockets` takes its Linux form.

use std::fs::File;
use std::path::Path;

/// Where oh-my-pi's ownership leases may live: the directories of the 18.5.0 leases.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeaseDirs {
    /// Each directory that may hold them, spelled as oh-my-pi spells it (the lock's name is
    /// a hash of that text).
    owners: Vec<String>,
}

impl LeaseDirs {
    /// The directories oh-my-pi keeps leases in for a home directory (as `os.homedir()`
    /// gives it, `$HOME` unresolved) and its variables `PI_CONFIG_DIR` and `XDG_STATE_HOME`.
    /// The XDG directory is looked at whenever the variable is set: oh-my-pi uses it once it
    /// exists, and a lease that is not there is simply not held.
    pub fn new(home: &Path, config_dir: Option<&str>, xdg_state: Option<&str>) -> LeaseDirs {
        let home = home.to_string_lossy();
        let config = config_dir.filter(|c| !c.is_empty()).unwrap_or(".omp");
        // `path.join` glues its parts, an absolute `PI_CONFIG_DIR` too.
        let mut owners = vec![resolve(&format!("{home}/{config}/run/session-owners"))];
        if let Some(state) = xdg_state.filter(|s| !s.is_empty()) {
            owners.push(resolve(&format!("{state}/omp/run/session-owners")));
        }
        LeaseDirs { owners }
    }

    /// The lock paths of the session whose header id is `id`, stored at `path` (as given) or
    /// `real` (symlinks resolved): each spelling oh-my-pi may have used.
    fn lock_paths(&self, id: Option<&str>, path: &Path, real: &Path) -> Vec<String> {
        let mut paths: Vec<String> = id
            .map(|id| {
                let name = lease_name(id);
                self.owners.iter().map(|dir| resolve(&format!("{dir}/{name}")) + ".lock").collect()
            })
            .unwrap_or_default();
        paths.extend([path, real].into_iter().filter_map(|file| beside(file, ".owner.lock")));
        paths.dedup();
        paths
    }
}

/// The process that holds a session's lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    /// Its process id, when it can be found (in `/proc`, among this user's processes).
    pub pid: Option<u32>,
}

/// The process holding the oh-my-pi lease of the session whose header id is `id`, stored at
/// `path` (`real` with symlinks resolved); `None` when no process holds it.
/// Never found on Windows (see the module's documentation).
pub fn owner(dirs: &LeaseDirs, id: Option<&str>, path: &Path, real: &Path) -> Option<Owner> {
    if cfg!(windows) {
        return None;
    }
    dirs.lock_paths(id, path, real).iter().find_map(|lock| holder(lock))
}

/// The holder of oh-my-pi's native lock on `lock_path`.
fn holder(lock_path: &str) -> Option<Owner> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Some(owner) = socket_holder(lock_path) {
        return Some(owner);
    }
    flock_holder(Path::new(lock_path))
}

/// The name of the abstract socket oh-my-pi binds on Linux for a lock path
/// (`memory_lock_name` in pi-natives' `file_lock`). Its test runs on every system.
#[cfg_attr(not(any(target_os = "linux", target_os = "android")), allow(dead_code))]
pub(crate) fn socket_name(lock_path: &str) -> String {
    const HIGH_SEED: u64 = 0x4f4d_502d_4c4f_434b; // "OMP-LOCK"
    const LOW_SEED: u64 = 0x5049_2d46_494c_454c; // "PI-FILEL"
    let bytes = lock_path.as_bytes();
    format!("omp-file-lock-{:016x}{:016x}", xxh64(bytes, HIGH_SEED), xxh64(bytes, LOW_SEED))
}

/// oh-my-pi's native lock on each of `lock_paths` as it is taken on Linux: the abstract sockets
/// bound, held until dropped. `None` while another process holds one of them (then none is
/// kept). Elsewhere the native lock is a `flock` on the path, which the caller takes.
pub(crate) fn take_sockets(lock_paths: &[String]) -> std::io::Result<Option<Vec<NativeSocket>>> {
    let mut held = Vec::new();
    for path in lock_paths {
        match bind_socket(path)? {
            Some(socket) => held.push(socket),
            None => return Ok(None),
        }
    }
    Ok(Some(held))
}

/// A bound abstract socket (Linux), or nothing where oh-my-pi's lock is a `flock`.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) type NativeSocket = std::os::unix::net::UnixDatagram;
/// A bound abstract socket (Linux), or nothing where oh-my-pi's lock is a `flock`.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) type NativeSocket = ();

/// Binds the abstract socket named for `lock_path`; `None` when another process has it.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn bind_socket(lock_path: &str) -> std::io::Result<Option<NativeSocket>> {
    #[cfg(target_os = "android")]
    use std::os::android::net::SocketAddrExt;
    #[cfg(target_os = "linux")]
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr, UnixDatagram};

    let addr = SocketAddr::from_abstract_name(socket_name(lock_path).as_bytes())?;
    match UnixDatagram::bind_addr(&addr) {
        Ok(socket) => Ok(Some(socket)),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => Ok(None),
        Err(e) => Err(e),
    }
}

/// Nothing to bind where oh-my-pi's lock is a `flock`.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn bind_socket(_lock_path: &str) -> std::io::Result<Option<NativeSocket>> {
    Ok(Some(()))
}

/// The holder of the abstract socket named for `lock_path`: a datagram socket connects to a
/// bound name, and is refused when nobody holds it.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn socket_holder(lock_path: &str) -> Option<Owner> {
    #[cfg(target_os = "android")]
    use std::os::android::net::SocketAddrExt;
    #[cfg(target_os = "linux")]
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr, UnixDatagram};

    let name = socket_name(lock_path);
    let addr = SocketAddr::from_abstract_name(name.as_bytes()).ok()?;
    UnixDatagram::unbound().ok()?.connect_addr(&addr).ok()?;
    Some(Owner { pid: socket_pid(&name) })
}

/// The process with a socket bound to the abstract `name` open: its inode in
/// `/proc/net/unix`, then the process whose descriptors include it.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn socket_pid(name: &str) -> Option<u32> {
    let table = std::fs::read_to_string("/proc/net/unix").ok()?;
    let inode = table.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.get(7)?.strip_prefix('@')? == name).then(|| fields[6].to_string())
    })?;
    let target = format!("socket:[{inode}]");
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|proc| {
        let pid: u32 = proc.file_name().to_str()?.parse().ok()?;
        let mut fds = std::fs::read_dir(proc.path().join("fd")).ok()?.flatten();
        fds.any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == &*target))
            .then_some(pid)
    })
}

/// The holder of a `flock` on the file at `lock_path`: a missing file is not locked; a lock
/// that is free is taken and released at once.
fn flock_holder(lock_path: &Path) -> Option<Owner> {
    let file = File::open(lock_path).ok()?;
    match file.try_lock() {
        Err(std::fs::TryLockError::WouldBlock) => Some(Owner { pid: flock_pid(&file) }),
        Ok(()) | Err(std::fs::TryLockError::Error(_)) => None,
    }
}

/// The process holding a `flock` on `file`, from `/proc/locks` (`MAJ:MIN:INODE`, the device
/// numbers in hex).
#[cfg(unix)]
fn flock_pid(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    let dev = meta.dev();
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & 0xffff_ff00);
    let wanted = format!("{major:02x}:{minor:02x}:{}", meta.ino());
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    // `1: FLOCK  ADVISORY  WRITE 23372 fe:00:10013789 0 EOF`; a waiter's line has `->`.
    locks.lines().filter(|line| !line.contains("->")).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.get(1) == Some(&"FLOCK") && fields.get(5) == Some(&wanted.as_str()))
            .then(|| fields.get(4)?.parse().ok())?
    })
}

/// No `/proc/locks` to name the holder in.
#[cfg(not(unix))]
fn flock_pid(_file: &File) -> Option<u32> {
    None
}

/// The file name oh-my-pi gives a session id's lease: the id itself when it is a plain token,
/// else a hash of it, so that no id names a path outside the directory.
fn lease_name(id: &str) -> String {
    let plain = (1..=128).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plain { id.to_string() } else { format!("h-{:016x}", wyhash(id.as_bytes())) }
}

/// The path `.<name><suffix>` beside the file at `file`, made absolute, as oh-my-pi spells
/// its sidecars (`path.join(dirname, "." + basename + suffix)`); `None` for a path that is not
/// UTF-8 text (pi-natives refuses those) or names no file.
pub(crate) fn beside(file: &Path, suffix: &str) -> Option<String> {
    let name = file.file_name()?.to_str()?;
    let file = resolve(file.to_str()?);
    let dir = file.rsplit_once('/').map_or("", |(dir, _)| dir);
    Some(format!("{dir}/.{name}{suffix}"))
}

/// `path.resolve` of Node: absolute (against the current directory), `.` and `..` and
/// repeated slashes taken out, no trailing slash; symlinks are left alone.
fn resolve(path: &str) -> String {
    let cwd;
    let full = if path.starts_with('/') {
        path
    } else {
        cwd = format!("{}/{path}", std::env::current_dir().unwrap_or_default().display());
        &cwd
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in full.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    format!("/{}", parts.join("/"))
}

/// XXH64 of `data` with `seed`, as pi-natives names its locks with (`xxhash_rust::xxh64`).
#[cfg_attr(not(any(target_os = "linux", target_os = "android")), allow(dead_code))]
fn xxh64(data: &[u8], seed: u64) -> u64 {
    const P1: u64 = 0x9E37_79B1_85EB_CA87;
    const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
    const P3: u64 = 0x1656_67B1_9E37_79F9;
    const P4: u64 = 0x85EB_CA77_C2B2_AE63;
    const P5: u64 = 0x27D4_EB2F_1656_67C5;
    let round = |acc: u64, input: u64| {
        acc.wrapping_add(input.wrapping_mul(P2)).rotate_left(31).wrapping_mul(P1)
    };
    let mut rest = data;
    let mut h = if data.len() >= 32 {
        let mut v = [
            seed.wrapping_add(P1).wrapping_add(P2),
            seed.wrapping_add(P2),
            seed,
            seed.wrapping_sub(P1),
        ];
        while let Some((stripe, tail)) = rest.split_first_chunk::<32>() {
            for (lane, word) in v.iter_mut().zip(stripe.chunks_exact(8)) {
                *lane = round(*lane, u64::from_le_bytes(word.try_into().unwrap_or_default()));
            }
            rest = tail;
        }
        let mut h = v[0]
            .rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18));
        for lane in v {
            h = (h ^ round(0, lane)).wrapping_mul(P1).wrapping_add(P4);
        }
        h
    } else {
        seed.wrapping_add(P5)
    };
    h = h.wrapping_add(data.len() as u64);
    while let Some((word, tail)) = rest.split_first_chunk::<8>() {
        h = (h ^ round(0, u64::from_le_bytes(*word)))
            .rotate_left(27)
            .wrapping_mul(P1)
            .wrapping_add(P4);
        rest = tail;
    }
    if let Some((word, tail)) = rest.split_first_chunk::<4>() {
        h = (h ^ u64::from(u32::from_le_bytes(*word)).wrapping_mul(P1))
            .rotate_left(23)
            .wrapping_mul(P2)
            .wrapping_add(P3);
        rest = tail;
    }
    for &byte in rest {
        h = (h ^ u64::from(byte).wrapping_mul(P5)).rotate_left(11).wrapping_mul(P1);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ (h >> 32)
}

/// `Bun.hash.wyhash` with seed 0 (Zig's `std.hash.Wyhash`, wyhash final 4).
fn wyhash(input: &[u8]) -> u64 {
    const SECRET: [u64; 4] = [
        0xa076_1d64_78bd_642f,
        0xe703_7ed1_a0b4_28db,
        0x8ebc_6af0_9c88_c6e3,
        0x5899_65cc_7537_4cc3,
    ];
    let mum = |a: u64, b: u64| {
        let x = u128::from(a) * u128::from(b);
        (x as u64, (x >> 64) as u64)
    };
    let mix = |a: u64, b: u64| {
        let (lo, hi) = mum(a, b);
        lo ^ hi
    };
    let read = |bytes: &[u8], at: usize, n: usize| {
        let mut word = [0u8; 8];
        word[..n].copy_from_slice(&bytes[at..at + n]);
        u64::from_le_bytes(word)
    };
    let seed = 0u64;
    let mut state = [seed ^ mix(seed ^ SECRET[0], SECRET[1]); 3];
    let len = input.len();
    let (a, b) = if len <= 16 {
        if len >= 4 {
            let end = len - 4;
            let quarter = (len >> 3) << 2;
            (
                (read(input, 0, 4) << 32) | read(input, quarter, 4),
                (read(input, end, 4) << 32) | read(input, end - quarter, 4),
            )
        } else if len > 0 {
            let a = (u64::from(input[0]) << 16)
                | (u64::from(input[len >> 1]) << 8)
                | u64::from(input[len - 1]);
            (a, 0)
        } else {
            (0, 0)
        }
    } else {
        let mut i = 0;
        if len >= 48 {
            while i + 48 < len {
                for (k, lane) in state.iter_mut().enumerate() {
                    let x = read(input, i + 16 * k, 8);
                    let y = read(input, i + 16 * k + 8, 8);
                    *lane = mix(x ^ SECRET[k + 1], y ^ *lane);
                }
                i += 48;
            }
            state[0] ^= state[1] ^ state[2];
        }
        let tail = &input[i..];
        let mut j = 0;
        while j + 16 < tail.len() {
            state[0] = mix(read(tail, j, 8) ^ SECRET[1], read(tail, j + 8, 8) ^ state[0]);
            j += 16;
        }
        (read(input, len - 16, 8), read(input, len - 8, 8))
    };
    let (a, b) = mum(a ^ SECRET[1], b ^ state[0]);
    mix(a ^ SECRET[0] ^ len as u64, b ^ SECRET[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Socket names of pi-natives' `FileLock` (oh-my-pi 18.2.3, Linux x64): the first read
    /// back from `/proc/net/unix` while the real native module held the lock; the others are
    /// the same two seeded XXH64 digests computed by libxxhash 0.8.1.
    #[test]
    fn socket_names_are_oh_my_pis() {
        let cases = [
            ("/tmp/lease-r6/x/owners/abc.lock", "76a44db66c1dfbfa1ce84ae1e0bae5c2"),
            ("", "dd4458733774f8b02ff557a2e70c6e06"),
            ("/a", "fbc3440a8f1e57684a245809c02cb763"),
            ("/tmp/x.lock", "fe15af82f830a8b559ce30b266f92a82"),
            ("/home/u/.omp/run/session-owners/abc.lock", "68eeae46badd3aa40f21e61a5083f316"),
            ("/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "9e51dce4f447b32665df2506cc62ce4d"),
            ("/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "39a98d41ee94e5bcedcf3ecfd64a1b75"),
        ];
        for (path, digest) in cases {
            assert_eq!(socket_name(path), format!("omp-file-lock-{digest}"), "{path:?}");
        }
        let long = format!("/home/é/.omp/run/session-owners/{}.lock", "c".repeat(40));
        assert_eq!(socket_name(&long), "omp-file-lock-f79334f1a1c78735b235c75f06728219");
    }

    /// `Bun.hash.wyhash` (Bun 1.4.5, oh-my-pi 18.2.3's runtime) of each length class.
    #[test]
    fn wyhash_is_buns() {
        let cases: [(String, u64); 14] = [
            (String::new(), 0x0409638ee2bde459),
            ("a".into(), 0x28d2053309d28531),
            ("abc".into(), 0x02a4f1d7cb516c72),
            ("abcd".into(), 0x48dfe2b09ab52113),
            ("session!".into(), 0xc2da758532169b8e),
            ("0123456789abcdef".into(), 0xc304e72c387cd229),
            ("0123456789abcdefg".into(), 0xb496f8f306600195),
            ("x".repeat(47), 0x4d49acfeb563d7a8),
            ("y".repeat(48), 0x89641857d86ae3fa),
            ("z".repeat(49), 0x76aa47dc56d0bc26),
            ("q".repeat(96), 0xda6b09b843acfb5b),
            ("w".repeat(97), 0xe48d594275859c25),
            ("not a plain id: é/..".into(), 0x29aef68a2f670034),
            ("p".repeat(129), 0x60a7ae68a4769a51),
        ];
        for (input, want) in cases {
            assert_eq!(wyhash(input.as_bytes()), want, "{input:?}");
        }
    }

    #[test]
    fn plain_ids_name_their_lease_and_others_are_hashed() {
        assert_eq!(lease_name("019a2b3c-4d5e"), "019a2b3c-4d5e");
        assert_eq!(lease_name(&"a".repeat(128)), "a".repeat(128));
        assert_eq!(lease_name(&"p".repeat(129)), "h-60a7ae68a4769a51");
        assert_eq!(lease_name("not a plain id: é/.."), "h-29aef68a2f670034");
        assert_eq!(lease_name(""), "h-0409638ee2bde459");
    }

    #[test]
    fn lock_paths_follow_node_path_rules() {
        let dirs = LeaseDirs::new(Path::new("/home/u/"), Some("/cfg/../conf"), Some("/state"));
        let paths = dirs.lock_paths(
            Some("s1"),
            Path::new("/home/u/link/./a.jsonl"),
            Path::new("/data/a.jsonl"),
        );
        assert_eq!(
            paths,
            [
                "/home/u/conf/run/session-owners/s1.lock",
                "/state/omp/run/session-owners/s1.lock",
                "/home/u/link/.a.jsonl.owner.lock",
                "/data/.a.jsonl.owner.lock",
            ]
        );
        let default = LeaseDirs::new(Path::new("/h"), None, Some(""));
        assert_eq!(default.owners, ["/h/.omp/run/session-owners"]);
        assert_eq!(resolve("/a//b/./c/../d/"), "/a/b/d");
        assert_eq!(resolve("/.."), "/");
    }

    #[test]
    #[cfg_attr(windows, ignore = "oh-my-pi's Windows lease is a named mutex, never looked for")]
    fn a_held_lock_is_found_with_its_process_and_a_free_one_is_left_free() {
        let dir = tempfile::tempdir().unwrap();
        let owners = dir.path().join(".omp/run/session-owners");
        std::fs::create_dir_all(&owners).unwrap();
        let dirs = LeaseDirs::new(dir.path(), None, None);
        let session = dir.path().join("s.jsonl");
        let find = || owner(&dirs, Some("sid"), &session, &session);
        assert_eq!(find(), None);
        // The flock sidecar (oh-my-pi on macOS and the BSDs).
        let sidecar = File::create(owners.join("sid.lock")).unwrap();
        sidecar.lock().unwrap();
        let pid = cfg!(target_os = "linux").then_some(std::process::id());
        assert_eq!(find(), Some(Owner { pid }));
        sidecar.unlock().unwrap();
        assert_eq!(find(), None);
        assert!(File::open(owners.join("sid.lock")).unwrap().try_lock().is_ok(), "left free");
        // The abstract socket (oh-my-pi on Linux), of 18.4.9's per-file lease too.
        #[cfg(target_os = "linux")]
        for lock in [owners.join("sid.lock"), dir.path().join(".s.jsonl.owner.lock")] {
            use std::os::linux::net::SocketAddrExt;
            use std::os::unix::net::{SocketAddr, UnixDatagram};
            let name = socket_name(lock.to_str().unwrap());
            let addr = SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
            let held = UnixDatagram::bind_addr(&addr).unwrap();
            assert_eq!(find(), Some(Owner { pid: Some(std::process::id()) }));
            drop(held);
            assert_eq!(find(), None);
        }
    }
}
