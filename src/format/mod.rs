//! The on-disk model: what one JSONL line of a session file is (FORMAT §1–§3), what its
//! payload says ([`entry`]), and what its header says ([`header`]).

pub mod claude;
pub mod codex;
pub mod entry;
pub mod envelope;
pub mod foreign;
pub mod header;
pub mod kind;
pub mod title;
pub mod transcript;
pub mod v1;

pub use envelope::{Envelope, Marks, scan_envelope};
pub use foreign::Foreign;
pub use header::HeaderRef;
pub use kind::Kind;

/// What sesstree calls pi's lane-based v4 format (CHANGES P7).
pub const LANE_FORMAT: &str = "a pi v4 session (lane format)";

/// Whether a first record (parsed) is the header of pi's lane-based v4 format (CHANGES P7):
/// `"kind": "header"` and no `type`, as pi-agent-core's session store writes it.
pub fn is_lane_header(record: &serde_json::Map<String, serde_json::Value>) -> bool {
    record.get("kind").and_then(serde_json::Value::as_str) == Some("header")
        && !record.contains_key("type")
}

/// Whether a `branch_summary` with this `summary` is a move marker: the entry that persists a
/// bare leaf move (FORMAT §4.3, `checkout` without a summary), whose summary is missing,
/// `null` or empty. It carries no text, and marks the position its parent is.
pub fn is_move_marker(summary: Option<entry::Raw<'_>>) -> bool {
    summary.is_none_or(|s| s.is_null() || s.text().is_some_and(|t| t.is_empty()))
}

/// The version sesstree writes (FORMAT §11: accept 1–4, write 3).
pub(crate) const WRITE_VERSION: u64 = 3;

/// The `<hex>` of an image's `blob:sha256:<hex>` data: oh-my-pi keeps such images out of the
/// session file, in its blob store (FORMAT §4.6, CHANGES O6). `None` for inline data.
pub fn blob_ref(data: &str) -> Option<&str> {
    data.strip_prefix("blob:sha256:")
}

/// The file of the blob store `store` that holds the blob `hex`: only a SHA-256 digest (64 hex
/// digits) names one, so no reference reaches another path.
pub fn blob_file(store: &std::path::Path, hex: &str) -> Option<std::path::PathBuf> {
    let digest = hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    digest.then(|| store.join(hex))
}

/// The newest version sesstree reads as its own (4 is read as 3).
pub(crate) const MAX_VERSION: u64 = 4;

/// Which agent wrote a file; decides naming storage and context templates (FORMAT §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// oh-my-pi: title slot, `title_change`, `model_change {model, role}`.
    Omp,
    /// pi-mono: `session_info`, `model_change {provider, modelId}`.
    Pi,
}

impl Dialect {
    /// The lowercase name used in `--flavor` and in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Omp => "omp",
            Dialect::Pi => "pi",
        }
    }
}
