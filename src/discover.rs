//! Finding session files: the paths given, with directories searched for `*.jsonl`; and where
//! the agents keep them ([`Places`]): their session roots, as their variables move them, and
//! the directory each names for a working directory (FORMAT §1.4, CHANGES O3 and P8).

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::{Dialect, Foreign, HeaderRef};

/// Expands files and directories into session files: a file is taken as given, a directory is
/// searched recursively for `*.jsonl` (sorted by name, symlinks not followed). `listing` (the
/// agents' directories, as `ls` lists them) also skips a session's artifact directory (the
/// directory named like a `.jsonl` file next to it, FORMAT §1.4, where subagent transcripts
/// live) and any subdirectory that cannot be read, and takes only regular files.
pub fn session_files(paths: &[PathBuf], listing: bool) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
        if meta.is_dir() {
            walk(p, listing, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// The session files in the artifact directory of each of `files` (`<name>/` next to
/// `<name>.jsonl`), and in theirs, and so on: where oh-my-pi 18.2.3's task tool writes its
/// subagents' transcripts (`<name>/<agent id>.jsonl`), which a listing skips. A directory that
/// cannot be read gives none; symlinks are not followed.
pub fn artifact_sessions(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut holders = files.to_vec();
    while !holders.is_empty() {
        let mut found = Vec::new();
        for file in &holders {
            let dir = file.with_extension("");
            let is_dir = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
            if file.extension().is_some_and(|e| e == "jsonl") && is_dir {
                let _ = walk(&dir, true, &mut found);
            }
        }
        out.extend_from_slice(&found);
        holders = found;
    }
    out
}

/// For each of `files`, whether another of them reads it as part of its session: a Claude
/// Code subagent's file (`<session>/subagents/agent-<id>.jsonl`) listed with its transcript,
/// which reads it after its own records ([`Foreign::read`]). `ls` and `grep` show
/// such a file through its transcript, not as a session of its own.
pub fn read_with_another(files: &[PathBuf]) -> Vec<bool> {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut joined = HashSet::new();
    for file in files {
        let subagents = crate::format::claude::subagent_files(file);
        if !subagents.is_empty() && foreign_format(file) == Some(Foreign::Claude) {
            joined.extend(subagents.iter().map(|p| real(p)));
        }
    }
    if joined.is_empty() {
        return vec![false; files.len()];
    }
    files.iter().map(|f| joined.contains(&real(f))).collect()
}

/// The other agent whose transcript `file` is, told as loading tells it.
fn foreign_format(file: &Path) -> Option<Foreign> {
    crate::Session::foreign_format_of(&std::fs::File::open(file).ok()?).ok()?
}

fn walk(dir: &Path, listing: bool, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    let is_session = |p: &Path| p.extension().is_some_and(|e| e == "jsonl");
    let stems: HashSet<_> = entries
        .iter()
        .map(|e| e.path())
        .filter(|p| listing && is_session(p))
        .filter_map(|p| p.file_stem().map(|s| s.to_owned()))
        .collect();
    for entry in entries {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            if stems.contains(&entry.file_name()) {
                continue;
            }
            match walk(&path, listing, out) {
                // One unreadable corner does not hide every other session.
                Err(_) if listing => {}
                r => r?,
            }
        } else if is_session(&path) && (kind.is_file() || !listing && !kind.is_symlink()) {
            out.push(path);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The agents' session directories

/// pi's directory name for a working directory: `--<cwd without its leading separator, with
/// / \ and : turned into ->--` (FORMAT §1.4); on Windows `C:\Users\me\project` gives
/// `--C--Users-me-project--` (pi 1.6.0's `getDefaultSessionDirPath`).
pub fn pi_dir_name(cwd: &str) -> String {
    let cwd = node_path(cwd);
    let rest = cwd.strip_prefix(['/', '\\']).unwrap_or(cwd);
    format!("--{}--", rest.replace(['/', '\\', ':'], "-"))
}

/// oh-my-pi's directory name for a working directory (FORMAT §1.4): `-<relative>` under the
/// home directory, `-tmp-<relative>` under the temporary directory, pi's form otherwise. Paths
/// compare as Node's `path.relative` compares them on this system ([`omp_dir_name_on`]).
pub fn omp_dir_name(cwd: &str, home: &str, tmp: &str) -> String {
    omp_dir_name_on(cwd, home, tmp, cfg!(windows))
}

/// [`omp_dir_name`] as oh-my-pi (18.2.3, `getDefaultSessionDirName` in
/// `session/session-paths.ts`) computes it on Windows (`windows`: `path.win32.relative`, which
/// takes `\` and `/` alike and ignores case) or elsewhere (`path.posix.relative`).
pub fn omp_dir_name_on(cwd: &str, home: &str, tmp: &str, windows: bool) -> String {
    let cwd = node_path(cwd);
    let encode = |rel: &str| rel.replace(['/', '\\', ':'], "-");
    if let Some(rel) = relative_to(cwd, node_path(home), windows) {
        return if rel.is_empty() { "-".into() } else { format!("-{}", encode(rel)) };
    }
    if let Some(rel) = relative_to(cwd, node_path(tmp), windows) {
        return if rel.is_empty() { "-tmp".into() } else { format!("-tmp-{}", encode(rel)) };
    }
    pi_dir_name(cwd)
}

/// A path as Node spells it: Windows' verbatim prefix (`\\?\`, which Rust's `canonicalize`
/// gives and Node's `realpath` does not) taken off.
fn node_path(path: &str) -> &str {
    // `\\?\UNC\server\share` is `\\server\share`: the prefix is kept whole there (rare, and
    // then no directory matches rather than a wrong one).
    match path.strip_prefix(r"\\?\") {
        Some(rest) if !rest.starts_with("UNC\\") => rest,
        _ => path,
    }
}

/// `path` relative to `base` when it is `base` or inside it; on Windows (`windows`) either
/// separator counts and case is ignored.
fn relative_to<'p>(path: &'p str, base: &str, windows: bool) -> Option<&'p str> {
    let separators: &[char] = if windows { &['/', '\\'] } else { &['/'] };
    let base = base.trim_end_matches(separators);
    if base.is_empty() {
        return None;
    }
    let head = path.get(..base.len())?;
    let same = if windows {
        head.replace('\\', "/").to_lowercase() == base.replace('\\', "/").to_lowercase()
    } else {
        head == base
    };
    if !same {
        return None;
    }
    let rest = &path[base.len()..];
    if rest.is_empty() {
        return Some("");
    }
    rest.strip_prefix(separators).map(|r| r.trim_end_matches(separators))
}

/// The home directory as the agents' `os.homedir()` gives it: `$HOME` on Unix,
/// `%USERPROFILE%` on Windows; `None` when it is unset or empty.
pub fn home_dir() -> Option<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    std::env::var_os(var).filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// Whether a header's `cwd` names the same directory as `wanted` (trailing slashes aside).
pub fn same_cwd(cwd: &str, wanted: &str) -> bool {
    let trim =
        |s: &str| if s.len() > 1 { s.trim_end_matches('/').to_string() } else { s.to_string() };
    trim(cwd) == trim(wanted)
}

/// What decides where the agents keep their sessions: the home and temporary directories and
/// the agents' variables (`PI_CONFIG_DIR`, `OMP_PROFILE`, `PI_PROFILE`, `PI_CODING_AGENT_DIR`,
/// `PI_CODING_AGENT_SESSION_DIR`, `XDG_DATA_HOME`), handed in by the caller.
#[derive(Debug, Clone, Default)]
pub struct Places {
    /// The home directory.
    pub home: PathBuf,
    /// The temporary directory (`os.tmpdir()`).
    pub tmp: PathBuf,
    /// The variables that are set, by name.
    pub vars: Vec<(String, String)>,
}

/// A directory an agent keeps sessions in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The agent.
    pub agent: Dialect,
    /// The directory.
    pub dir: PathBuf,
    /// Whether the sessions sit directly in it, matched to a working directory by their
    /// header's `cwd` (pi's `PI_CODING_AGENT_SESSION_DIR`), rather than in a directory per
    /// working directory.
    pub flat: bool,
}

/// The variables [`Places`] reads.
pub const PLACE_VARS: [&str; 8] = [
    "PI_CONFIG_DIR",
    "OMP_PROFILE",
    "PI_PROFILE",
    "PI_CODING_AGENT_DIR",
    "PI_CODING_AGENT_SESSION_DIR",
    "XDG_DATA_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
];

impl Places {
    fn var(&self, name: &str) -> Option<&str> {
        self.vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The sessions roots of both agents, oh-my-pi's first (CHANGES O3, P8).
    pub fn roots(&self) -> Vec<Root> {
        let mut roots = vec![Root { agent: Dialect::Omp, dir: self.omp_sessions(), flat: false }];
        let pi_agent = self
            .var("PI_CODING_AGENT_DIR")
            .map_or_else(|| self.home.join(".pi/agent"), |dir| self.expand(dir));
        roots.push(match self.var("PI_CODING_AGENT_SESSION_DIR").filter(|d| !d.is_empty()) {
            Some(dir) => Root { agent: Dialect::Pi, dir: self.expand(dir), flat: true },
            None => Root { agent: Dialect::Pi, dir: pi_agent.join("sessions"), flat: false },
        });
        roots
    }

    /// The agent whose sessions directory holds `file` (CHANGES O3, P8): the root it lies
    /// under, the deepest one when roots nest. `None` outside every root, or when the file
    /// cannot be resolved. Symlinks are resolved on both sides.
    pub fn agent_of(&self, file: &Path) -> Option<Dialect> {
        let file = std::fs::canonicalize(file).ok()?;
        self.roots()
            .into_iter()
            .filter_map(|root| {
                let dir = std::fs::canonicalize(&root.dir).ok()?;
                let rest = file.strip_prefix(&dir).ok()?;
                // A flat root holds its sessions directly; the others one directory down.
                let depth = rest.components().count();
                let placed = if root.flat { depth == 1 } else { depth == 2 };
                placed.then(|| (dir.components().count(), root.agent))
            })
            .max_by_key(|(depth, _)| *depth)
            .map(|(_, agent)| agent)
    }

    /// Where the other agents whose transcripts sesstree reads keep them: Claude Code's
    /// projects (`CLAUDE_CONFIG_DIR`, else `~/.claude`, then `projects/`, a directory per
    /// working directory) and Codex's sessions (`CODEX_HOME`, else `~/.codex`, then
    /// `sessions/YYYY/MM/DD/`), as oh-my-pi 18.2.3's importers find them.
    pub fn foreign_roots(&self) -> Vec<(Foreign, PathBuf)> {
        let dir = |var: &str, default: &str| {
            self.var(var)
                .filter(|d| !d.is_empty())
                .map_or_else(|| self.home.join(default), |d| self.expand(d))
        };
        vec![
            (Foreign::Claude, dir("CLAUDE_CONFIG_DIR", ".claude").join("projects")),
            (Foreign::Codex, dir("CODEX_HOME", ".codex").join("sessions")),
        ]
    }

    /// oh-my-pi's blob store, beside its sessions root (CHANGES O3, O6): the directory its
    /// `blob:sha256:` references name files in.
    pub fn omp_blobs(&self) -> PathBuf {
        self.omp_sessions().with_file_name("blobs")
    }

    /// oh-my-pi's sessions root: under `~/<PI_CONFIG_DIR or .omp>`, its profile's agent
    /// directory (`PI_CODING_AGENT_DIR` replaces it in the default profile), or the flattened
    /// XDG data directory where it exists.
    fn omp_sessions(&self) -> PathBuf {
        let root = self.home.join(self.var("PI_CONFIG_DIR").unwrap_or(".omp"));
        let profile = self
            .var("OMP_PROFILE")
            .or_else(|| self.var("PI_PROFILE"))
            .filter(|p| !p.is_empty() && *p != "default");
        let agent_override = self.var("PI_CODING_AGENT_DIR").filter(|_| profile.is_none());
        if let Some(dir) = agent_override {
            return self.expand(dir).join("sessions");
        }
        let data = self
            .var("XDG_DATA_HOME")
            .map_or_else(|| self.home.join(".local/share"), |dir| self.expand(dir));
        let in_profile = |dir: PathBuf| match profile {
            Some(name) => dir.join("profiles").join(name),
            None => dir,
        };
        let xdg = in_profile(data.join("omp"));
        if cfg!(unix) && xdg.is_dir() {
            return xdg.join("sessions");
        }
        in_profile(root).join("agent/sessions")
    }

    /// A directory named in a variable, with a leading `~` for the home directory.
    fn expand(&self, dir: &str) -> PathBuf {
        match dir.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                self.home.join(rest.trim_start_matches('/'))
            }
            _ => PathBuf::from(dir),
        }
    }

    /// The directories that hold the sessions of the working directory `cwd` under `root`,
    /// as the agent names them (FORMAT §1.4): oh-my-pi's `-<relative>` under the home
    /// directory, `-tmp-<relative>` under the temporary one, else (and before it renamed
    /// them, for any) `--<absolute>--`; pi's `--<absolute>--`; a flat root itself.
    pub fn cwd_dirs(&self, root: &Root, cwd: &Path) -> Vec<PathBuf> {
        if root.flat {
            return vec![root.dir.clone()];
        }
        let text = |p: &Path| node_path(&p.to_string_lossy()).to_owned();
        let cwd = text(cwd);
        let mut names = Vec::new();
        if root.agent == Dialect::Omp {
            names.push(omp_dir_name(&cwd, &text(&self.home), &text(&self.tmp)));
        }
        let absolute = pi_dir_name(&cwd);
        if !names.contains(&absolute) {
            names.push(absolute);
        }
        names.into_iter().map(|name| root.dir.join(name)).collect()
    }

    /// The session files of `cwd`, in every root, newest first (by modification time, as
    /// `omp --continue` and `pi -c` pick the latest), with the directories searched.
    pub fn sessions_of(&self, cwd: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let mut found: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
        let mut searched = Vec::new();
        let cwd_text = cwd.to_string_lossy();
        for root in self.roots() {
            for dir in self.cwd_dirs(&root, cwd) {
                for path in jsonl_files(&dir) {
                    if root.flat && !header_cwd(&path).is_some_and(|c| same_cwd(&c, &cwd_text)) {
                        continue;
                    }
                    let modified = std::fs::metadata(&path).and_then(|m| m.modified());
                    found.push((modified.unwrap_or(std::time::UNIX_EPOCH), path));
                }
                searched.push(dir);
            }
        }
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        (found.into_iter().map(|(_, p)| p).collect(), searched)
    }

    /// The current project's sessions, newest first: those of `cwd` ([`Places::sessions_of`])
    /// or, when it has none, of the nearest parent directory that has any, as git looks upward
    /// for its repository. The first is "the current session", the one `omp --continue` and
    /// `pi -c` (pi 1.6.0's `findMostRecentSession`: newest by modification time in the
    /// directory's session directory) resume from that directory. Also returns the directories
    /// searched for `cwd` itself.
    pub fn current_sessions(&self, cwd: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let (found, searched) = self.sessions_of(cwd);
        if !found.is_empty() {
            return (found, searched);
        }
        let mut nearest = cwd.ancestors().skip(1).map(|dir| self.sessions_of(dir).0);
        (nearest.find(|found| !found.is_empty()).unwrap_or_default(), searched)
    }

    /// The agents' session directories (where their variables put them), or with `wanted`
    /// (the forms of working directories, [`cwd_forms`]) each agent's directory for them, as
    /// `ls --cwd` and `grep --cwd` look in. `home` and `tmp` are the home and temporary
    /// directories as the environment names them, before symlinks are resolved.
    pub fn session_dirs(
        &self,
        home: Option<&str>,
        tmp: &Path,
        wanted: Option<&[String]>,
    ) -> Vec<PathBuf> {
        let Some(home) = home else { return Vec::new() };
        let roots = self.roots();
        let mut dirs = Vec::new();
        match wanted {
            None => dirs.extend(roots.into_iter().map(|root| root.dir)),
            Some(wanted) => {
                let homes = forms(Path::new(home));
                let tmps = forms(tmp);
                for root in roots {
                    if root.flat {
                        // The files sit there directly; their headers say whose they are.
                        dirs.push(root.dir);
                        continue;
                    }
                    for cwd in wanted {
                        if root.agent == Dialect::Omp {
                            for (h, t) in
                                homes.iter().flat_map(|h| tmps.iter().map(move |t| (h, t)))
                            {
                                dirs.push(root.dir.join(omp_dir_name(cwd, h, t)));
                            }
                        }
                        dirs.push(root.dir.join(pi_dir_name(cwd)));
                    }
                }
            }
        }
        // Claude Code's and Codex's transcripts name their working directory inside: with a
        // working directory wanted, their headers (as sesstree reads them) decide.
        dirs.extend(self.foreign_roots().into_iter().map(|(_, dir)| dir));
        let mut seen = HashSet::new();
        dirs.retain(|d| d.is_dir() && seen.insert(d.clone()));
        dirs
    }
}

/// The ways a directory may be written in a header: absolute as given (`.`/`..` resolved, as
/// Node's `path.resolve` does) and with symlinks resolved (the agents' `process.cwd()`).
pub fn cwd_forms(dir: &Path) -> std::io::Result<Vec<String>> {
    let absolute =
        if dir.is_absolute() { dir.to_path_buf() } else { std::env::current_dir()?.join(dir) };
    Ok(forms(&absolute))
}

fn forms(path: &Path) -> Vec<String> {
    let mut lexical = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                lexical.pop();
            }
            other => lexical.push(other),
        }
    }
    let mut out = vec![lexical.display().to_string()];
    if let Ok(real) = crate::platform::canonicalize(&lexical) {
        let real = real.display().to_string();
        if real != out[0] {
            out.push(real);
        }
    }
    out
}

/// The `*.jsonl` files directly in `dir` (none when it cannot be read), without the agents'
/// hidden lock sidecars.
fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .collect()
}

/// The `cwd` of a session file's header (line 1, or line 2 after a title slot).
fn header_cwd(path: &Path) -> Option<String> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).ok()?;
    let reader = std::io::BufReader::new(file);
    for line in reader.split(b'\n').take(2) {
        let value: serde_json::Value = serde_json::from_slice(&line.ok()?).ok()?;
        if let Some(header) = HeaderRef::of(&value) {
            return header.cwd().map(str::to_owned);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_directories_but_not_artifacts() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let write = |name: &str, text: &str| {
            std::fs::create_dir_all(d.join(name).parent().unwrap()).unwrap();
            std::fs::write(d.join(name), text).unwrap();
        };
        write("-proj/2026-01-01T00-00-00-000Z_a.jsonl", "");
        write("-proj/2026-01-01T00-00-00-000Z_a/sub.jsonl", "");
        write("-proj/other/b.jsonl", "");
        write("-proj/notes.txt", "");
        // oh-my-pi's lock sidecars (CHANGES O2) are not sessions.
        write("-proj/.2026-01-01T00-00-00-000Z_a.jsonl.lock.os", "");
        write("-proj/.2026-01-01T00-00-00-000Z_a.jsonl.lock", "123:1760000000000\n");
        let files = session_files(&[d.to_path_buf()], true).unwrap();
        let names: Vec<_> = files.iter().map(|f| f.strip_prefix(d).unwrap().to_owned()).collect();
        assert_eq!(
            names,
            vec![
                PathBuf::from("-proj/2026-01-01T00-00-00-000Z_a.jsonl"),
                PathBuf::from("-proj/other/b.jsonl")
            ]
        );
        assert!(session_files(&[d.join("missing")], true).is_err());
    }

    fn places(vars: &[(&str, &str)]) -> Places {
        Places {
            home: PathBuf::from("/home/u"),
            tmp: PathBuf::from("/tmp"),
            vars: vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        }
    }

    fn dirs(places: &Places, cwd: &str) -> Vec<String> {
        let cwd = Path::new(cwd);
        places
            .roots()
            .iter()
            .flat_map(|root| places.cwd_dirs(root, cwd))
            .map(|d| d.display().to_string())
            .collect()
    }

    #[test]
    fn directory_names_of_both_agents() {
        assert_eq!(pi_dir_name("/Users/x/git/repo"), "--Users-x-git-repo--");
        assert_eq!(pi_dir_name("C:\\work\\a"), "--C--work-a--");
        let (home, tmp) = ("/home/u", "/tmp");
        assert_eq!(omp_dir_name("/home/u/pi", home, tmp), "-pi");
        assert_eq!(omp_dir_name("/home/u/a/b", home, tmp), "-a-b");
        assert_eq!(omp_dir_name("/home/u", home, tmp), "-");
        assert_eq!(omp_dir_name("/home/user2", home, tmp), "--home-user2--");
        assert_eq!(omp_dir_name("/tmp/x/y", home, tmp), "-tmp-x-y");
        assert_eq!(omp_dir_name("/tmp", home, tmp), "-tmp");
        assert_eq!(omp_dir_name("/opt/w", home, tmp), "--opt-w--");
        assert!(same_cwd("/a/b/", "/a/b") && !same_cwd("/a/b", "/a/bc") && same_cwd("/", "/"));
    }

    /// The names each agent gives a Windows working directory, tested on every system: the
    /// values are what oh-my-pi 18.2.3's `getDefaultSessionDirName` gives when run with Node's
    /// `path.win32` (home `C:\Users\Me`, temporary directory `D:\Temp`), and pi 1.6.0's
    /// `getDefaultSessionDirPath` (one expression, the same on every system).
    #[test]
    fn windows_directory_names_of_both_agents() {
        let (home, tmp) = (r"C:\Users\Me", r"D:\Temp");
        let omp = |cwd| omp_dir_name_on(cwd, home, tmp, true);
        assert_eq!(omp(r"c:\users\me\Proj\a"), "-Proj-a", "case is ignored");
        assert_eq!(omp(r"C:\Users\Me"), "-");
        assert_eq!(omp(r"C:\Users\Me2"), "--C--Users-Me2--");
        assert_eq!(omp(r"D:\Temp\x\y"), "-tmp-x-y");
        assert_eq!(omp(r"d:\temp"), "-tmp");
        assert_eq!(omp(r"E:\work\a b"), "--E--work-a b--");
        assert_eq!(omp("C:/Users/Me/fwd/x"), "-fwd-x", "either separator");
        // Rust's canonical form of a Windows path carries a prefix Node's has not.
        assert_eq!(omp_dir_name_on(r"\\?\C:\Users\Me\p", r"\\?\C:\Users\Me", tmp, true), "-p");
        assert_eq!(pi_dir_name(r"C:\Users\me\project"), "--C--Users-me-project--");
        assert_eq!(pi_dir_name(r"\\?\C:\Users\me\project"), "--C--Users-me-project--");
        // Elsewhere case counts and a backslash is a character like any other.
        assert_eq!(omp_dir_name_on("/home/U/p", "/home/u", "/tmp", false), "--home-U-p--");
    }

    /// Under Wine or Windows: the current directory's session directories come from
    /// `%USERPROFILE%` (`os.homedir()` there), spelled as Windows spells paths.
    #[cfg(windows)]
    #[test]
    fn windows_sessions_are_found_under_the_user_profile() {
        let profile = tempfile::tempdir().unwrap();
        let home = std::fs::canonicalize(profile.path()).unwrap();
        let project = home.join("Project");
        let omp = home.join(r".omp\agent\sessions\-Project");
        let pi_name = pi_dir_name(&project.to_string_lossy());
        let pi = home.join(r".pi\agent\sessions").join(&pi_name);
        for dir in [&project, &omp, &pi] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(omp.join("a.jsonl"), "").unwrap();
        std::fs::write(pi.join("b.jsonl"), "").unwrap();
        assert!(
            pi_name.starts_with("--") && pi_name.ends_with("-Project--") && !pi_name.contains('?')
        );
        let places = Places { home, tmp: std::env::temp_dir(), vars: Vec::new() };
        let (found, _) = places.sessions_of(&project);
        let mut names: Vec<_> = found.iter().map(|f| f.file_name().unwrap().to_owned()).collect();
        names.sort();
        assert_eq!(names, ["a.jsonl", "b.jsonl"]);
    }

    /// FORMAT §1.4 and CHANGES O3, P8: each agent's directory for a working directory.
    #[test]
    #[cfg_attr(windows, ignore = "Unix paths, which Windows joins with \\")]
    fn each_agent_names_the_directory_of_a_working_directory_its_way() {
        let default = places(&[]);
        assert_eq!(
            dirs(&default, "/home/u/src/app"),
            [
                "/home/u/.omp/agent/sessions/-src-app",
                "/home/u/.omp/agent/sessions/--home-u-src-app--",
                "/home/u/.pi/agent/sessions/--home-u-src-app--",
            ]
        );
        assert_eq!(dirs(&default, "/home/u")[0], "/home/u/.omp/agent/sessions/-");
        assert_eq!(dirs(&default, "/tmp/x/y")[0], "/home/u/.omp/agent/sessions/-tmp-x-y");
        assert_eq!(dirs(&default, "/tmp")[0], "/home/u/.omp/agent/sessions/-tmp");
        assert_eq!(
            dirs(&default, "/srv/a:b"),
            ["/home/u/.omp/agent/sessions/--srv-a-b--", "/home/u/.pi/agent/sessions/--srv-a-b--"]
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "Unix paths, which Windows joins with \\")]
    fn the_agents_variables_move_the_roots() {
        let roots = |vars: &[(&str, &str)]| -> Vec<(String, bool)> {
            places(vars)
                .roots()
                .into_iter()
                .map(|r| (r.dir.display().to_string(), r.flat))
                .collect()
        };
        assert_eq!(
            roots(&[("PI_CONFIG_DIR", ".config/omp"), ("OMP_PROFILE", "work")]),
            [
                ("/home/u/.config/omp/profiles/work/agent/sessions".into(), false),
                ("/home/u/.pi/agent/sessions".into(), false),
            ]
        );
        // The agent directory replaces both agents' own, but only in omp's default profile.
        assert_eq!(
            roots(&[("PI_CODING_AGENT_DIR", "~/agent"), ("PI_PROFILE", "default")]),
            [("/home/u/agent/sessions".into(), false), ("/home/u/agent/sessions".into(), false)]
        );
        assert_eq!(
            roots(&[("PI_CODING_AGENT_DIR", "/a"), ("OMP_PROFILE", "p")])[0].0,
            "/home/u/.omp/profiles/p/agent/sessions"
        );
        // pi's session directory holds the files flat.
        assert_eq!(
            roots(&[("PI_CODING_AGENT_SESSION_DIR", "/data/pi")])[1],
            ("/data/pi".into(), true)
        );
    }

    /// Where `$XDG_DATA_HOME/omp` exists (a profile's under it), oh-my-pi keeps its sessions
    /// there; an agent-directory override wins over it.
    #[test]
    #[cfg_attr(windows, ignore = "Unix paths, which Windows joins with \\")]
    fn an_existing_xdg_data_directory_holds_omp_sessions() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir_all(data.join("omp/profiles/work")).unwrap();
        let data_var = ("XDG_DATA_HOME".to_string(), data.display().to_string());
        let with = |more: &[(&str, &str)]| {
            let mut places = places(more);
            places.vars.push(data_var.clone());
            places.roots()[0].dir.clone()
        };
        assert_eq!(with(&[]), data.join("omp/sessions"));
        assert_eq!(with(&[("OMP_PROFILE", "work")]), data.join("omp/profiles/work/sessions"));
        assert_eq!(
            with(&[("OMP_PROFILE", "home")]),
            PathBuf::from("/home/u/.omp/profiles/home/agent/sessions")
        );
        assert_eq!(with(&[("PI_CODING_AGENT_DIR", "/a")]), PathBuf::from("/a/sessions"));
    }

    #[test]
    fn the_newest_session_of_the_directory_comes_first() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let places = Places { home: home.clone(), tmp: dir.path().join("tmp"), vars: Vec::new() };
        let cwd = home.join("proj");
        let omp = home.join(".omp/agent/sessions/-proj");
        let pi = home.join(".pi/agent/sessions").join(pi_dir_name(&cwd.to_string_lossy()));
        for d in [&omp, &pi, &home.join(".omp/agent/sessions/-other")] {
            std::fs::create_dir_all(d).unwrap();
        }
        let write = |path: PathBuf, age: u64| {
            std::fs::write(&path, "{}\n").unwrap();
            let when = std::time::SystemTime::now() - std::time::Duration::from_secs(age);
            std::fs::File::options().write(true).open(&path).unwrap().set_modified(when).unwrap();
            path
        };
        let old = write(omp.join("old.jsonl"), 100);
        let new = write(pi.join("new.jsonl"), 10);
        write(omp.join(".old.jsonl.lock.os"), 1);
        write(omp.join("notes.txt"), 1);
        write(home.join(".omp/agent/sessions/-other/newest.jsonl"), 1);
        let (found, searched) = places.sessions_of(&cwd);
        assert_eq!(found, [new, old]);
        assert_eq!(searched.len(), 3);
    }

    #[test]
    fn a_flat_root_keeps_the_sessions_whose_header_names_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let flat = dir.path().join("flat");
        std::fs::create_dir_all(&flat).unwrap();
        let header =
            |cwd: &str| format!(r#"{{"type":"session","version":3,"id":"s","cwd":"{cwd}"}}"#);
        std::fs::write(flat.join("a.jsonl"), header("/w/a") + "\n").unwrap();
        let slot = r#"{"type":"title","v":1,"title":"","updatedAt":"t","pad":""}"#;
        std::fs::write(flat.join("b.jsonl"), format!("{slot}\n{}\n", header("/w/a"))).unwrap();
        std::fs::write(flat.join("c.jsonl"), header("/w/c") + "\n").unwrap();
        let places = Places {
            home: dir.path().join("home"),
            tmp: dir.path().join("tmp"),
            vars: vec![("PI_CODING_AGENT_SESSION_DIR".into(), flat.display().to_string())],
        };
        let (mut found, _) = places.sessions_of(Path::new("/w/a"));
        found.sort();
        assert_eq!(found, [flat.join("a.jsonl"), flat.join("b.jsonl")]);
    }
}
