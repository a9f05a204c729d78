//! Where a session file's bytes are (`stats --bytes`): by entry type, in inline images, in tool
//! output, on the active path and off it, so a user sees what `prune` would save before running
//! it.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::error::Result;
use crate::format::blob_ref;
use crate::format::entry::{Block, Image, Payload, Role};
use crate::json::scan::Scanner;
use crate::session::{Session, parse_lossy};

/// Bytes and how many things hold them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Share {
    /// Bytes, newlines included for whole lines.
    pub bytes: u64,
    /// How many lines (or images).
    pub count: u64,
}

impl Share {
    fn add(&mut self, bytes: u64) {
        self.bytes += bytes;
        self.count += 1;
    }

    fn to_json(self) -> Value {
        json!({"bytes": self.bytes, "count": self.count})
    }
}

/// Where the bytes of one file are.
#[derive(Debug, Clone, Default)]
pub struct ByteReport {
    /// The file's size.
    pub total: u64,
    /// The title slot and the header line (and blank lines).
    pub other: u64,
    /// Whole lines by entry type.
    pub by_type: BTreeMap<String, Share>,
    /// The base64 data of images written inline (not `blob:` references): the characters of
    /// their `data` strings.
    pub images: Share,
    /// Whole `toolResult` message lines.
    pub tool_output: Share,
    /// Whole lines of the entries on the path from the root to the leaf.
    pub active_path: Share,
    /// Whole lines of every other entry: what `prune --abandoned` would remove at most.
    pub off_path: Share,
}

/// What is read of a message line: its role, and the type and data of its content blocks.
/// Works out where the bytes of `session` are, reading every message line once.
pub fn report(session: &Session) -> Result<ByteReport> {
    let mut out = ByteReport { total: session.file_len, ..ByteReport::default() };
    let mut active = vec![false; session.records.len()];
    if let Some(leaf) = session.leaf() {
        for idx in session.path_to_root(leaf) {
            active[idx as usize] = true;
        }
    }
    let mut lines = session.lines();
    let mut scanner = Scanner::new();
    let mut in_lines = 0;
    for (idx, r) in session.records.iter().enumerate() {
        let bytes = (r.len + 1).min(session.file_len - r.offset);
        in_lines += bytes;
        out.by_type.entry(r.kind.as_str().to_owned()).or_default().add(bytes);
        if active[idx] { &mut out.active_path } else { &mut out.off_path }.add(bytes);
        if r.kind != crate::format::Kind::Message {
            continue;
        }
        let line = lines.line(idx as u32)?;
        let parsed;
        let payload = match Payload::scan(line, &mut scanner) {
            Some(payload) => payload,
            None => {
                let Some(value) = parse_lossy(line) else { continue };
                parsed = value;
                Payload::from_value(&parsed)
            }
        };
        let Some(message) = payload.message() else { continue };
        if message.role == Some(Role::ToolResult) {
            out.tool_output.add(bytes);
        }
        for block in message.content.blocks() {
            if let Block::Image(Image { data: Some(data), .. }) = block
                && let data = data.decode()
                && blob_ref(&data).is_none()
            {
                out.images.add(data.len() as u64);
            }
        }
    }
    out.other = session.file_len.saturating_sub(in_lines);
    Ok(out)
}

impl ByteReport {
    /// The report as one JSON object, with the file it is about first.
    pub fn to_json(&self, file: &str) -> Value {
        let by_type: serde_json::Map<String, Value> =
            self.by_type.iter().map(|(t, s)| (t.clone(), s.to_json())).collect();
        json!({
            "file": file,
            "bytes": self.total,
            "headerBytes": self.other,
            "byType": by_type,
            "images": self.images.to_json(),
            "toolOutput": self.tool_output.to_json(),
            "activePath": self.active_path.to_json(),
            "offPath": self.off_path.to_json(),
        })
    }

    /// The report as lines of text, `label: bytes (share of the file) in what`, the entry
    /// types largest first, after the total.
    pub fn to_text(&self) -> Vec<String> {
        let share = |bytes: u64| {
            let percent =
                if self.total == 0 { 0.0 } else { bytes as f64 * 100.0 / self.total as f64 };
            format!("{} ({percent:.1}%)", human(bytes))
        };
        let mut types: Vec<(&String, &Share)> = self.by_type.iter().collect();
        types.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(b.0)));
        let mut rows: Vec<(String, String)> = vec![("total".into(), human(self.total))];
        for (kind, s) in types {
            let kind = if kind.is_empty() { "(no type)" } else { kind };
            rows.push((kind.to_owned(), format!("{} in {}", share(s.bytes), lines(s.count))));
        }
        let part =
            |s: &Share, one, many| format!("{} in {}", share(s.bytes), count(s.count, one, many));
        let what = [
            ("header", share(self.other)),
            ("inline images", part(&self.images, "image", "images")),
            ("tool output", part(&self.tool_output, "result", "results")),
            ("active path", part(&self.active_path, "entry", "entries")),
            ("off the path", part(&self.off_path, "entry", "entries")),
        ];
        rows.extend(what.into_iter().map(|(k, v)| (k.to_owned(), v)));
        let width = rows.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0) + 1;
        rows.into_iter().map(|(k, v)| format!("  {:<width$} {v}", format!("{k}:"))).collect()
    }
}

fn lines(n: u64) -> String {
    count(n, "line", "lines")
}

fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Bytes in B, KiB, MiB or GiB, one decimal above bytes.
fn human(bytes: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn human_sizes() {
        assert_eq!(human(0), "0 B");
        assert_eq!(human(1023), "1023 B");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(3 << 20), "3.0 MiB");
    }

    /// Inline image data counts; a `blob:` reference does not; every line is in one type and
    /// on or off the path.
    #[test]
    fn images_tool_output_and_the_path() {
        let text = concat!(
            r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#,
            "\n",
            r#"{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"image","data":"QUJD","mimeType":"image/png"}]}}"#,
            "\n",
            r#"{"type":"message","id":"b","parentId":"a","timestamp":"t","message":{"role":"toolResult","content":[{"type":"image","data":"blob:sha256:00","mimeType":"image/png"}]}}"#,
            "\n",
            r#"{"type":"label","id":"c","parentId":"a","timestamp":"t","targetId":"a","label":"x"}"#,
            "\n",
            r#"{"type":"message","id":"d","parentId":"b","timestamp":"t","message":{"role":"assistant","content":[]}}"#,
            "\n",
        );
        let s = Session::from_bytes(Path::new("x"), text.as_bytes().to_vec()).unwrap();
        let r = report(&s).unwrap();
        assert_eq!(r.images, Share { bytes: 4, count: 1 });
        assert_eq!(r.tool_output.count, 1);
        assert_eq!(r.by_type["message"].count, 3);
        assert_eq!(r.by_type["label"].count, 1);
        assert_eq!(r.off_path.count, 1, "the label is off the path of d");
        let lines: u64 = r.by_type.values().map(|s| s.bytes).sum();
        assert_eq!(lines + r.other, r.total);
        assert_eq!(r.active_path.bytes + r.off_path.bytes, lines);
    }
}
