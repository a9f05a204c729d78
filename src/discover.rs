//! Finding session files: the paths given, with directories searched for `*.jsonl`.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Expands files and directories into session files: a file is taken as given, a directory is
/// searched recursively for `*.jsonl` (sorted, symlinked directories not followed).
pub fn session_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
        if meta.is_dir() {
            walk(p, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "jsonl") && !kind.is_symlink() {
            out.push(path);
        }
    }
    Ok(())
}
