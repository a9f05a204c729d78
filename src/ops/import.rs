//! `import`: another agent's transcript as a session of oh-my-pi or pi, which the agent resumes
//! and continues. For oh-my-pi, the file is what its own importer writes
//! (`persistForeignSession` in oh-my-pi 18.2.3's `src/session/foreign-session-import.ts`):
//! the title slot (empty for an untitled session) and a new header carrying the title, the
//! converted entries ([`crate::format::claude::import`]), the `title_change` that names the
//! session, and a `custom` entry `foreign_session_import` that says where it came from. For
//! pi, the same in pi 1.6.0's shapes: no title slot and no title in the header (pi refuses a
//! file whose first line is not its header, CHANGES P6), `model_change {provider, modelId}`,
//! and a `session_info` for the name.

use serde_json::{Value, json};

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::format::title::encode_slot;
use crate::format::transcript::Imported;
use crate::format::{Dialect, WRITE_VERSION};
use crate::id_gen::IdGen;

/// Where the transcript comes from, as the `foreign_session_import` record says it.
#[derive(Debug, Clone)]
pub struct Source {
    /// `claude` or `codex`.
    pub agent: &'static str,
    /// The transcript's session id (its file name without `.jsonl`).
    pub id: String,
    /// The transcript's absolute path.
    pub path: String,
}

/// The new session file.
#[derive(Debug)]
pub struct Plan {
    /// The whole file.
    pub bytes: Vec<u8>,
    /// The new session id.
    pub session_id: String,
    /// When it was made (its file name's time).
    pub created_ms: i64,
    /// The working directory it belongs to.
    pub cwd: String,
}

/// Plans the import of `imported` (what the importer made of `source`, in the shapes of `to`)
/// as a session of `to`.
pub fn plan(
    imported: Imported,
    source: &Source,
    to: Dialect,
    clock: &Clock,
    ids: &mut IdGen,
) -> Result<Plan> {
    if to == Dialect::Pi && imported.entries.is_empty() {
        // pi writes a session file only once it holds a message (CHANGES R5).
        return Err(Error::Usage(format!(
            "{}: nothing to import: no message outside sidechains (a subagent's file holds \
             sidechains alone), and pi writes no session without one",
            source.path
        )));
    }
    let created_ms = clock.now_millis();
    let now = crate::clock::format_iso_millis(created_ms);
    let session_id = ids.session_id(created_ms);
    let cwd = imported.cwd.clone().unwrap_or_default();
    let mut taken = imported.ids.clone();
    let mut fresh = |ids: &mut IdGen| {
        let id = ids.entry_id(|c| taken.contains(c));
        taken.insert(id.clone());
        id
    };

    let mut bytes = Vec::new();
    let mut line = |value: &Value| {
        bytes.extend_from_slice(value.to_string().as_bytes());
        bytes.push(b'\n');
    };
    let mut header = json!({"type": "session", "version": WRITE_VERSION, "id": session_id,
        "timestamp": now, "cwd": cwd});
    let mut leaf = imported.leaf.clone();
    let mut tail = Vec::new();
    if let Some((title, title_source)) = &imported.title {
        let id = fresh(ids);
        tail.push(match to {
            Dialect::Omp => {
                header["title"] = json!(title);
                header["titleSource"] = json!(title_source.as_str());
                let mut change = json!({"type": "title_change", "id": id, "parentId": leaf,
                    "timestamp": now, "title": title, "source": title_source.as_str()});
                if let Some(trigger) = imported.title_trigger {
                    change["trigger"] = json!(trigger);
                }
                change
            }
            Dialect::Pi => {
                json!({"type": "session_info", "id": id, "parentId": leaf, "timestamp": now,
                    "name": title})
            }
        });
        leaf = Some(id);
    }
    let data = json!({"source": source.agent, "sourceId": source.id, "sourcePath": source.path,
        "sourceCwd": cwd});
    tail.push(json!({"type": "custom", "customType": "foreign_session_import", "data": data,
        "id": fresh(ids), "parentId": leaf, "timestamp": now}));

    let mut out = Vec::new();
    if to == Dialect::Omp {
        // oh-my-pi writes the slot of an untitled session too: an empty title, no source.
        let (title, title_source) = match &imported.title {
            Some((title, source)) => (title.as_str(), Some(*source)),
            None => ("", None),
        };
        out = encode_slot(title, title_source, &now)
            .map_err(|e| Error::Usage(format!("no title slot holds the title: {e}")))?;
    }
    line(&header);
    imported.entries.iter().chain(&tail).for_each(&mut line);
    out.extend(bytes);
    Ok(Plan { bytes: out, session_id, created_ms, cwd })
}
