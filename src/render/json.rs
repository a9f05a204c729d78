//! What `log` and `tree` print of an entry for machines: the `--json` row of SPEC §5, written
//! by one writer ([`JsonRow::write`]) whatever the row was read from.

use serde_json::Value;

use crate::id::EntryId;
use crate::row::gist::{Field, Gist, PREFETCH};
use crate::session::Session;
use crate::terminal::has_control_or;

/// Where a `--json` row sits: its depth in the drawn tree (0 for `log`), whether it is on the
/// path from the root to the leaf, and whether it is the leaf.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    /// The depth in the drawn tree.
    pub depth: u32,
    /// On the path from the root to the leaf.
    pub on_active_path: bool,
    /// The leaf itself.
    pub is_leaf: bool,
}

/// One `--json` row of `log` or `tree`, borrowed from what the command read.
#[derive(Debug, Clone, Copy)]
pub struct JsonRow<'a> {
    /// The entry's `id`.
    pub id: Option<&'a EntryId>,
    /// Its `parentId`.
    pub parent_id: Option<&'a EntryId>,
    /// Its `type` member as written.
    pub kind: Field<'a>,
    /// A message's role.
    pub role: Option<&'a str>,
    /// A tool result's `toolName`.
    pub tool_name: Option<&'a str>,
    /// Its `timestamp` member as written.
    pub timestamp: Field<'a>,
    /// The label in effect, as the JSON value it was written as.
    pub label: Option<&'a Value>,
    /// The row text.
    pub text: &'a str,
    /// Whether the row text cut the entry's own text short.
    pub text_truncated: bool,
    /// Where the row sits.
    pub at: Placement,
    /// On the row that stands for a leaf the filter or the search hides (its nearest shown
    /// ancestor), the leaf's id: written as `leafHidden`, on that row only.
    pub leaf_hidden: Option<&'a EntryId>,
}

impl<'a> JsonRow<'a> {
    /// The row of record `idx`, from its gist, with the label in effect and its row text.
    pub fn of_gist(
        session: &'a Session,
        idx: u32,
        gist: &'a Gist,
        label: Option<&'a Value>,
        text: &'a str,
        at: Placement,
    ) -> Self {
        let r = session.record(idx);
        JsonRow {
            id: r.id.as_ref(),
            parent_id: r.parent_id.as_ref(),
            kind: gist.kind(),
            role: gist.role(),
            tool_name: gist.tool_name(),
            timestamp: gist.timestamp(),
            label,
            text,
            text_truncated: gist.is_cut(),
            at,
            leaf_hidden: None,
        }
    }

    /// Writes the row as one line of JSON text (without its newline), member by member as
    /// serde_json writes the object (a derived serializer with a flattened part cost
    /// `tree --json` 6% of its time); strings without anything to escape, nearly all, are
    /// copied as they stand.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"id\":");
        write_id(out, self.id);
        out.extend_from_slice(b",\"parentId\":");
        write_id(out, self.parent_id);
        out.extend_from_slice(b",\"type\":");
        write_field(out, self.kind);
        out.extend_from_slice(b",\"role\":");
        write_field(out, self.role.map_or(Field::Json("null"), Field::Str));
        out.extend_from_slice(b",\"toolName\":");
        write_field(out, self.tool_name.map_or(Field::Json("null"), Field::Str));
        out.extend_from_slice(b",\"timestamp\":");
        write_field(out, self.timestamp);
        out.extend_from_slice(b",\"label\":");
        match self.label {
            Some(label) => write_serialized(out, label),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"text\":");
        write_json_bytes(out, self.text.as_bytes());
        out.extend_from_slice(b",\"textTruncated\":");
        out.extend_from_slice(if self.text_truncated { b"true" } else { b"false" });
        out.extend_from_slice(b",\"depth\":");
        out.extend_from_slice(itoa::Buffer::new().format(self.at.depth).as_bytes());
        out.extend_from_slice(b",\"onActivePath\":");
        out.extend_from_slice(if self.at.on_active_path { b"true" } else { b"false" });
        out.extend_from_slice(b",\"isLeaf\":");
        out.extend_from_slice(if self.at.is_leaf { b"true" } else { b"false" });
        if let Some(leaf) = self.leaf_hidden {
            out.extend_from_slice(b",\"leafHidden\":");
            write_id(out, Some(leaf));
        }
        out.push(b'}');
    }
}

/// Writes the rows `items` in order, each formatted by `format` into `out`: formatting runs
/// on every core, a batch at a time, so that only one batch of text waits in memory. The gist
/// of the row a few places ahead (`gist`) is fetched while a row is formatted: each lives in
/// an allocation of its own, rarely in the cache.
pub fn write_rows<'g, T: Sync, E: From<std::io::Error> + Send>(
    out: &mut impl std::io::Write,
    items: &[T],
    gist: impl Fn(&T) -> &'g Gist + Sync,
    format: impl Fn(&T, &mut Vec<u8>) -> Result<(), E> + Sync,
) -> Result<(), E> {
    use rayon::prelude::*;
    const CHUNK: usize = 1024;
    const ROW_ROOM: usize = 160;
    let batch = CHUNK * 4 * rayon::current_num_threads();
    // The chunks' texts, kept from batch to batch once written: a new buffer for each chunk
    // was grown (and copied) a doubling at a time past rows of the usual length, and its pages
    // were faulted in afresh.
    let spare: std::sync::Mutex<Vec<Vec<u8>>> = std::sync::Mutex::default();
    for batch in items.chunks(batch) {
        let texts: Vec<Result<Vec<u8>, E>> = batch
            .par_chunks(CHUNK)
            .map(|chunk| {
                let kept = spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
                let mut text = kept.unwrap_or_else(|| Vec::with_capacity(chunk.len() * ROW_ROOM));
                for (i, item) in chunk.iter().enumerate() {
                    if let Some(next) = chunk.get(i + PREFETCH) {
                        gist(next).prefetch();
                    }
                    format(item, &mut text)?;
                }
                Ok(text)
            })
            .collect();
        for text in texts {
            let mut text = text?;
            out.write_all(&text)?;
            text.clear();
            spare.lock().unwrap_or_else(|e| e.into_inner()).push(text);
        }
    }
    Ok(())
}

/// An id as `--json` prints it: a string id as the string, anything else as the JSON value it
/// was written as (through [`EntryId::to_value`]).
fn write_id(out: &mut Vec<u8>, id: Option<&EntryId>) {
    match id {
        None => out.extend_from_slice(b"null"),
        Some(id) if id.is_string() => write_json_bytes(out, id.as_bytes()),
        Some(id) => write_serialized(out, &id.to_value()),
    }
}

/// A payload field as its `--json` row writes it.
fn write_field(out: &mut Vec<u8>, field: Field<'_>) {
    match field {
        Field::Str(text) => write_json_bytes(out, text.as_bytes()),
        Field::Json(text) => out.extend_from_slice(text.as_bytes()),
    }
}

/// `value` as serde_json writes it.
fn write_serialized(out: &mut Vec<u8>, value: &impl serde::Serialize) {
    // Serializing into memory cannot fail.
    let _ = serde_json::to_writer(out, value);
}

/// A string's bytes (UTF-8, which the caller vouches for) as a JSON string, as serde_json
/// writes it: with nothing to escape (no `"`, `\` or byte below 0x20), as it stands.
fn write_json_bytes(out: &mut Vec<u8>, text: &[u8]) {
    if !has_control_or(text, b'"', b'\\') {
        out.push(b'"');
        out.extend_from_slice(text);
        out.push(b'"');
    } else {
        write_serialized(out, &String::from_utf8_lossy(text));
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::Map;

    use super::*;
    use crate::row::Rows;
    use crate::row::gist::Resolver;
    use crate::row::text::FilterMode;
    use crate::row::view::{Viewer, labels};

    /// The row built as a map, field by field, and printed by serde_json: the reference the
    /// writer is held to.
    fn reference(row: &JsonRow<'_>) -> String {
        let id = |id: Option<&EntryId>| id.map_or(Value::Null, EntryId::to_value);
        let field = |field| match field {
            Field::Str(text) => Value::String(text.into()),
            Field::Json(text) => serde_json::from_str(text).unwrap(),
        };
        let mut m = Map::new();
        m.insert("id".into(), id(row.id));
        m.insert("parentId".into(), id(row.parent_id));
        m.insert("type".into(), field(row.kind));
        let opt = |s: Option<&str>| s.map_or(Value::Null, |s| Value::String(s.into()));
        m.insert("role".into(), opt(row.role));
        m.insert("toolName".into(), opt(row.tool_name));
        m.insert("timestamp".into(), field(row.timestamp));
        m.insert("label".into(), row.label.cloned().unwrap_or(Value::Null));
        m.insert("text".into(), Value::String(row.text.into()));
        m.insert("textTruncated".into(), row.text_truncated.into());
        m.insert("depth".into(), row.at.depth.into());
        m.insert("onActivePath".into(), row.at.on_active_path.into());
        m.insert("isLeaf".into(), row.at.is_leaf.into());
        if let Some(leaf) = row.leaf_hidden {
            m.insert("leafHidden".into(), leaf.to_value());
        }
        Value::Object(m).to_string()
    }

    fn written(row: &JsonRow<'_>) -> String {
        let mut out = Vec::new();
        row.write(&mut out);
        String::from_utf8(out).unwrap()
    }

    /// Rows written member by member are what serde writes of the row's fields: odd ids (a
    /// number, escapes), odd `type` and `timestamp` (not strings, control characters), labels.
    #[test]
    fn rows_written_by_hand_are_what_serde_writes() {
        let lines = [
            r#"{"type":"session","version":3,"id":"s","cwd":"/w"}"#,
            r#"{"type":"message","id":"a\"b\\c","parentId":null,"timestamp":[1,{"x":"\u0001"}],"message":{"role":"user","content":"tab\there \"q\" é \u007f"}}"#,
            r#"{"type":"x\u0002y","id":7,"parentId":"a\"b\\c","timestamp":"2026-01-01T00:00:00Z"}"#,
            r#"{"type":"label","id":"l","parentId":7,"targetId":7,"label":{"k":[1,"\n"]}}"#,
            r#"{"id":"n","parentId":"l","timestamp":null}"#,
        ];
        let text = lines.join("\n").into_bytes();
        let (s, gists) = Session::from_bytes_with(Path::new("t"), text, &Rows::new(None)).unwrap();
        let labels = labels(&s);
        assert_eq!(gists.len(), 4);
        for (idx, gist) in gists.iter().enumerate() {
            let idx = idx as u32;
            for text in ["plain", "a \"quote\", a \\ and a \u{1b}[31m", ""] {
                let at = Placement { depth: 3, on_active_path: idx != 1, is_leaf: idx == 3 };
                let label = labels.get(&idx).map(|l| &l.1);
                let mut row = JsonRow::of_gist(&s, idx, gist, label, text, at);
                assert_eq!(written(&row), reference(&row));
                // The hidden leaf's id (odd ids too) on the row that stands for it.
                row.leaf_hidden = s.record((idx + 1) % 4).id.as_ref();
                assert_eq!(written(&row), reference(&row));
            }
        }
    }

    #[test]
    fn every_ascii_character_is_written_as_serde_json_writes_it() {
        for c in (0u8..=0x7f).map(char::from).chain(['é', '\u{2028}', '\u{fffd}']) {
            let text = format!("a{c}b");
            let mut ours = Vec::new();
            write_json_bytes(&mut ours, text.as_bytes());
            assert_eq!(ours, serde_json::to_vec(&text).unwrap(), "{c:?}");
        }
    }

    proptest::proptest! {
        /// Any text is written as serde_json writes the string.
        #[test]
        fn strings_are_written_as_serde_json_writes_them(text in "(?s).{0,40}") {
            let mut ours = Vec::new();
            write_json_bytes(&mut ours, text.as_bytes());
            proptest::prop_assert_eq!(ours, serde_json::to_vec(&text).unwrap());
        }
    }

    /// Calls and results spread over many entries, ids reused with other tools, a label, and
    /// a result whose call is only on another branch.
    fn session_text() -> Vec<u8> {
        let mut lines = vec![
            r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#.to_string(),
        ];
        let mut parent = "null".to_string();
        const ENTRIES: usize = 6000;
        for i in 0..ENTRIES {
            let id = format!("e{i}");
            let line = if i % 3 == 0 {
                let name = ["read", "bash", "edit"][i % 9 / 3];
                format!(
                    r#"{{"type":"message","id":"{id}","parentId":{parent},"message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c{}","name":"{name}","arguments":{{"path":"/home/u/f{i}","command":"make {i}"}}}}]}}}}"#,
                    i % 101
                )
            } else {
                format!(
                    r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:00Z","message":{{"role":"toolResult","toolCallId":"c{}","content":"out"}}}}"#,
                    (i * 7) % 131
                )
            };
            lines.push(line);
            parent = format!("\"{id}\"");
        }
        let last = ENTRIES - 1;
        lines.push(format!(
            r#"{{"type":"label","id":"l1","parentId":"e{last}","targetId":"e4","label":"here"}}"#
        ));
        lines.push(r#"{"type":"message","id":"z1","parentId":"l1","message":{"role":"assistant","content":[{"type":"toolCall","id":"cz","name":"grep","arguments":{"pattern":"x"}}]}}"#.to_string());
        lines.push(format!(
            r#"{{"type":"message","id":"r1","parentId":"e{}","message":{{"role":"toolResult","toolCallId":"cz","toolName":"grep","content":"x"}}}}"#,
            ENTRIES * 2 / 3,
        ));
        lines.join("\n").into_bytes()
    }

    /// Every row a gist gives, read in `order`: its text and whether each filter mode shows it
    /// (as the leaf and not), as read through a [`Viewer`]; and its `--json` row.
    #[test]
    fn gists_read_in_order_give_the_rows_of_the_viewer() {
        let rows = Rows::new(Some("/home/u"));
        let (s, gists) = Session::from_bytes_with(Path::new("t"), session_text(), &rows).unwrap();
        let labels = labels(&s);
        let file_order: Vec<u32> = (0..s.records.len() as u32).collect();
        let leaf = s.leaf().unwrap();
        for order in [file_order, s.path_to_root(leaf)] {
            let mut viewer = Viewer::new(&s, Some("/home/u"));
            let mut resolver = Resolver::default();
            for &idx in &order {
                let view = viewer.view(idx).unwrap();
                let gist = &gists[idx as usize];
                let text = resolver.resolve(gist).text().unwrap();
                assert_eq!(text, view.text, "record {idx}");
                let label = labels.get(&idx);
                assert_eq!(label.map(|l| &l.0), view.label.as_ref());
                for mode in FilterMode::CYCLE {
                    for is_leaf in [false, true] {
                        assert_eq!(
                            gist.facts().shows(mode, is_leaf, label.is_some()),
                            view.facts.shows(mode, is_leaf, view.label.is_some())
                        );
                    }
                }
                let at = Placement { depth: 2, on_active_path: idx % 2 == 0, is_leaf: idx == leaf };
                let row = JsonRow::of_gist(&s, idx, gist, label.map(|l| &l.1), text, at);
                assert_eq!(written(&row), reference(&row));
            }
        }
        let r1 = s.lookup(&EntryId::new("r1")).unwrap();
        let mut resolver = Resolver::default();
        let path_text =
            s.path_to_root(r1).iter().map(|&i| resolver.resolve(&gists[i as usize]).text()).last();
        assert_eq!(
            path_text,
            Some(Some("[grep]")),
            "the call on the other branch is not on the path"
        );
        let mut resolver = Resolver::default();
        let file_text = gists.iter().map(|g| resolver.resolve(g).text()).last();
        assert_eq!(
            file_text,
            Some(Some("[grep: /x/ in .]")),
            "in file order, the call comes first"
        );
    }

    #[test]
    fn rows_are_written_once_each_in_order_across_batches() {
        use std::io::Write;
        // Several batches, rows of lengths that change, and a last chunk cut short: the
        // buffers a batch reuses must hold nothing of the batch before.
        let items: Vec<usize> = (0..40_000).collect();
        let gists: Vec<Gist> = (0..7).map(|_| Gist::unreadable()).collect();
        let format = |i: &usize, out: &mut Vec<u8>| -> std::io::Result<()> {
            writeln!(out, "{i} {}", "x".repeat(i % 300))
        };
        let mut written = Vec::new();
        write_rows(&mut written, &items, |&i| &gists[i % 7], format).unwrap();
        let mut expected = Vec::new();
        for i in &items {
            format(i, &mut expected).unwrap();
        }
        assert!(written == expected);
    }
}
