//! What a command shows of one entry: its envelope fields plus the one-line text and search
//! text of FORMAT §9.3–§9.4, computed from the parsed payload. Built for the entries a command
//! shows and dropped right after, so payloads never pile up in memory.

use serde_json::Value;

use crate::error::Result;
use crate::id::EntryId;
use crate::json::scan::Scanner;
use crate::row::Json;
use crate::row::RowValue;
use crate::row::gist::{Field, answers};
use crate::row::text::{FilterMode, ToolCalls, one_line, search_text, shows};
use crate::session::Session;

/// One entry as commands print it.
#[derive(Debug, Clone)]
pub struct EntryView {
    /// The record index.
    pub idx: u32,
    /// The parsed line, reduced to the fields rows read ([`super::read_row`]); use
    /// [`Session::value`] for the whole entry.
    pub value: RowValue<'static>,
    /// The label in effect, as display text.
    pub label: Option<String>,
    /// The label in effect, as the JSON value it was written as.
    pub label_value: Option<Value>,
    /// The one-line text.
    pub text: String,
}

/// Reads entries one after another, in an order where tool calls come before their results,
/// and keeps what is needed to render results (`ToolCalls`).
pub struct Viewer<'s> {
    session: &'s Session,
    lines: crate::session::LineReader<'s>,
    tools: ToolCalls,
    labels: std::sync::Arc<Labels>,
    scanner: Scanner,
}

/// The labels in effect by record index, as display text and as the JSON value written.
pub type Labels = std::collections::HashMap<u32, (String, Value), foldhash::fast::RandomState>;

/// The labels in effect in a session.
pub fn labels(session: &Session) -> Labels {
    session
        .labels()
        .iter()
        .filter_map(|(t, raw)| {
            let idx = session.lookup(t)?;
            let value: Value = serde_json::from_str(raw).ok()?;
            let text = crate::session::label_text(raw);
            Some((idx, (text, value)))
        })
        .collect()
}

impl<'s> Viewer<'s> {
    /// A viewer over a session.
    pub fn new(session: &'s Session, home: Option<&str>) -> Viewer<'s> {
        Viewer::with_labels(session, home, std::sync::Arc::new(labels(session)))
    }

    /// A viewer with the labels already read.
    fn with_labels(
        session: &'s Session,
        home: Option<&str>,
        labels: std::sync::Arc<Labels>,
    ) -> Viewer<'s> {
        let tools = home.map(ToolCalls::with_home).unwrap_or_default();
        Viewer { session, lines: session.lines(), tools, labels, scanner: Scanner::new() }
    }

    /// Reads one entry and records its tool calls for later results.
    pub fn view(&mut self, idx: u32) -> Result<EntryView> {
        let value = super::read_row(self.session, idx, &mut self.lines, &mut self.scanner)?;
        Ok(self.view_value(idx, value))
    }

    /// [`Viewer::view`] of an entry already read.
    fn view_value(&mut self, idx: u32, value: RowValue<'static>) -> EntryView {
        self.tools.add(&value);
        let (label, label_value) = match self.labels.get(&idx) {
            Some((t, v)) => (Some(t.clone()), Some(v.clone())),
            None => (None, None),
        };
        let text = one_line(&value, &self.tools);
        EntryView { idx, value, label, label_value, text }
    }

    /// Reads one entry on its own, out of file order: its few nearest ancestors are read first
    /// so that a tool result finds the call it answers (the call is in an earlier assistant
    /// entry, normally a parent or two up).
    pub fn view_in_context(&mut self, idx: u32) -> Result<EntryView> {
        const LOOK_BACK: usize = 8;
        let mut ancestors = Vec::with_capacity(LOOK_BACK);
        let mut cur = idx;
        while let Some(p) = self.session.parent(cur) {
            if ancestors.len() == LOOK_BACK {
                break;
            }
            ancestors.push(p);
            cur = p;
        }
        for &a in ancestors.iter().rev() {
            let value = self.session.value(a)?;
            self.tools.add(&value);
        }
        self.view(idx)
    }

    /// Whether the entry passes a filter mode, with `leaf` as the leaf (FORMAT §9.2).
    pub fn shows(&self, view: &EntryView, mode: FilterMode, leaf: Option<u32>) -> bool {
        shows(mode, &view.value, leaf == Some(view.idx), view.label.is_some())
    }

    /// The text `--search` matches against (FORMAT §9.4).
    pub fn search_text(&self, view: &EntryView) -> String {
        search_text(&view.value, view.label.as_deref(), &self.tools)
    }
}

/// How many entries one parallel task of [`render_all`] reads.
const CHUNK: usize = 2048;

/// Views the entries `order` names, in that order as far as tool calls go (calls before their
/// results), and renders each with `render`: what [`Viewer::view`] in a loop would give, read
/// on every core. Each task views a stretch of `order` with its own calls; a result whose call
/// is not in its stretch waits, and is rendered afterwards with the calls of all earlier
/// stretches (a later call with the same id replacing an earlier one, as in one pass).
pub fn render_all<T: Send>(
    session: &Session,
    home: Option<&str>,
    order: &[u32],
    render: impl Fn(&Viewer<'_>, &EntryView) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    use rayon::prelude::*;

    struct Stretch<T> {
        done: Vec<Option<T>>,
        waiting: Vec<(usize, u32, RowValue<'static>)>,
        tools: ToolCalls,
    }
    // Read once for every stretch.
    let labels = std::sync::Arc::new(labels(session));
    let stretches: Vec<Result<Stretch<T>>> = order
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut viewer = Viewer::with_labels(session, home, labels.clone());
            let mut done = Vec::with_capacity(chunk.len());
            let mut waiting = Vec::new();
            for (pos, &idx) in chunk.iter().enumerate() {
                let value = super::read_row(session, idx, &mut viewer.lines, &mut viewer.scanner)?;
                if answers(&value).is_some_and(|call| viewer.tools.get(call).is_none()) {
                    waiting.push((pos, idx, value));
                    done.push(None);
                    continue;
                }
                let view = viewer.view_value(idx, value);
                done.push(Some(render(&viewer, &view)?));
            }
            Ok(Stretch { done, waiting, tools: std::mem::take(&mut viewer.tools) })
        })
        .collect();
    let mut earlier = home.map(ToolCalls::with_home).unwrap_or_default();
    let mut viewer = Viewer::with_labels(session, home, labels);
    let mut out = Vec::with_capacity(order.len());
    for stretch in stretches {
        let Stretch { mut done, waiting, tools } = stretch?;
        std::mem::swap(&mut viewer.tools, &mut earlier);
        for (pos, idx, value) in waiting {
            let view = viewer.view_value(idx, value);
            done[pos] = Some(render(&viewer, &view)?);
        }
        std::mem::swap(&mut viewer.tools, &mut earlier);
        earlier.extend(tools);
        out.extend(done.into_iter().flatten());
    }
    Ok(out)
}

/// An id as `--json` prints it: a string id as the string, anything else as the JSON value it
/// was written as (through [`EntryId::to_value`]).
struct JsonId<'a>(Option<&'a EntryId>);

impl serde::Serialize for JsonId<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self.0 {
            None => s.serialize_unit(),
            Some(id) if id.is_string() => s.serialize_str(id.as_str()),
            Some(id) => id.to_value().serialize(s),
        }
    }
}

/// The fields of a `--json` row (SPEC §5) that come from the entry's payload, borrowed from
/// the view.
#[derive(serde::Serialize)]
struct PayloadFields<'a> {
    #[serde(rename = "type")]
    kind: Field<'a>,
    timestamp: Field<'a>,
    label: &'a Value,
    text: &'a str,
}

/// The part of a `--json` row that comes from the entry's payload (`type`, `timestamp`,
/// `label`, `text`), serialized; [`JsonPart::row`] completes it with what the index and the
/// tree layout know. `tree` keeps this part of each row until the tree is drawn, not the row.
#[derive(Debug, Clone)]
pub struct JsonPart(Box<str>);

impl JsonPart {
    /// The part of a row made of these fields: the entry's `type` and `timestamp`, the label
    /// in effect as written, and the one-line text.
    pub fn new(kind: Field<'_>, timestamp: Field<'_>, label: Option<&Value>, text: &str) -> Self {
        let fields = PayloadFields { kind, timestamp, label: label.unwrap_or(&Value::Null), text };
        let object = serde_json::to_string(&fields).unwrap_or_default();
        // The members without the braces around them.
        let members = object.get(1..object.len().saturating_sub(1)).unwrap_or_default();
        JsonPart(members.into())
    }

    /// The whole `--json` row of SPEC §5 for `log` and `tree`, as one line of JSON text.
    pub fn row(
        &self,
        session: &Session,
        idx: u32,
        depth: u32,
        on_active_path: bool,
        is_leaf: bool,
    ) -> String {
        let r = session.record(idx);
        // Serializing borrowed values into a string cannot fail.
        let id = |id| serde_json::to_string(&JsonId(id)).unwrap_or_default();
        format!(
            r#"{{"id":{},"parentId":{},{},"depth":{depth},"onActivePath":{on_active_path},"isLeaf":{is_leaf}}}"#,
            id(r.id.as_ref()),
            id(r.parent_id.as_ref()),
            self.0
        )
    }
}

/// A whole `--json` row of SPEC §5 for `log` and `tree`, serialized by serde: the reference
/// [`write_json_row`] is held to.
#[cfg(test)]
#[derive(serde::Serialize)]
struct JsonRowFields<'a> {
    id: JsonId<'a>,
    #[serde(rename = "parentId")]
    parent_id: JsonId<'a>,
    #[serde(flatten)]
    payload: PayloadFields<'a>,
    depth: u32,
    #[serde(rename = "onActivePath")]
    on_active_path: bool,
    #[serde(rename = "isLeaf")]
    is_leaf: bool,
}

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

/// Writes the `--json` row of SPEC §5 for `log` and `tree` of the gist of record `idx`, with
/// the label in effect and its row text, as one line of JSON text (without its newline): the
/// same text as [`JsonPart::row`].
pub fn write_json_row(
    out: &mut Vec<u8>,
    session: &Session,
    idx: u32,
    gist: &crate::row::gist::Gist,
    label: Option<&Value>,
    text: &str,
    at: Placement,
) {
    // Written member by member as serde_json writes the object (a derived serializer with a
    // flattened part cost `tree --json` 6% of its time); strings without anything to escape,
    // nearly all, are copied as they stand.
    let r = session.record(idx);
    out.extend_from_slice(b"{\"id\":");
    write_id(out, r.id.as_ref());
    out.extend_from_slice(b",\"parentId\":");
    write_id(out, r.parent_id.as_ref());
    out.extend_from_slice(b",\"type\":");
    write_field(out, gist.kind());
    out.extend_from_slice(b",\"timestamp\":");
    write_field(out, gist.timestamp());
    out.extend_from_slice(b",\"label\":");
    match label {
        Some(label) => write_serialized(out, label),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"text\":");
    write_json_str(out, text);
    out.extend_from_slice(b",\"depth\":");
    out.extend_from_slice(itoa::Buffer::new().format(at.depth).as_bytes());
    out.extend_from_slice(b",\"onActivePath\":");
    out.extend_from_slice(if at.on_active_path { b"true" } else { b"false" });
    out.extend_from_slice(b",\"isLeaf\":");
    out.extend_from_slice(if at.is_leaf { b"true" } else { b"false" });
    out.push(b'}');
}

/// An id as its `--json` row writes it ([`JsonId`]).
fn write_id(out: &mut Vec<u8>, id: Option<&EntryId>) {
    match id {
        Some(id) if id.is_string() => write_json_bytes(out, id.as_bytes()),
        id => write_serialized(out, &JsonId(id)),
    }
}

/// A payload field as its `--json` row writes it.
fn write_field(out: &mut Vec<u8>, field: Field<'_>) {
    match field {
        Field::Str(text) => write_json_str(out, text),
        other => write_serialized(out, &other),
    }
}

/// `value` as serde_json writes it.
fn write_serialized(out: &mut Vec<u8>, value: &impl serde::Serialize) {
    // Serializing into memory cannot fail.
    let _ = serde_json::to_writer(out, value);
}

/// `text` as a JSON string, as serde_json writes it: with nothing to escape (no `"`, `\` or
/// byte below 0x20), as it stands.
fn write_json_str(out: &mut Vec<u8>, text: &str) {
    write_json_bytes(out, text.as_bytes());
}

/// [`write_json_str`] of a string's bytes (UTF-8, which the caller vouches for).
fn write_json_bytes(out: &mut Vec<u8>, text: &[u8]) {
    if !crate::terminal::has_control_or(text, b'"', b'\\') {
        out.push(b'"');
        out.extend_from_slice(text);
        out.push(b'"');
    } else {
        write_serialized(out, &String::from_utf8_lossy(text));
    }
}

impl EntryView {
    /// The payload part of the entry's `--json` row.
    pub fn json_part(&self) -> JsonPart {
        let field = |key| Field::Other(self.value.get(key).unwrap_or(RowValue::null()));
        JsonPart::new(field("type"), field("timestamp"), self.label_value.as_ref(), &self.text)
    }

    /// The entry's `--json` row of SPEC §5 for `log` and `tree`, as one line of JSON text.
    pub fn to_json_line(
        &self,
        session: &Session,
        depth: u32,
        on_active_path: bool,
        is_leaf: bool,
    ) -> String {
        self.json_part().row(session, self.idx, depth, on_active_path, is_leaf)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::Map;

    use super::*;
    use crate::row::Rows;
    use crate::row::gist::Resolver;
    use crate::row::text::shows;

    impl EntryView {
        /// The `--json` row of SPEC §5 built as a map, field by field: the reference the
        /// serialized row of [`EntryView::to_json_line`] is held to.
        pub fn to_json(
            &self,
            session: &Session,
            depth: u32,
            on_active_path: bool,
            is_leaf: bool,
        ) -> Value {
            let r = session.record(self.idx);
            let mut m = Map::new();
            m.insert("id".into(), r.id.as_ref().map_or(Value::Null, |i| i.to_value()));
            m.insert("parentId".into(), r.parent_id.as_ref().map_or(Value::Null, |i| i.to_value()));
            let field = |key| self.value.get(key).map_or(Value::Null, Json::to_value);
            m.insert("type".into(), field("type"));
            m.insert("timestamp".into(), field("timestamp"));
            m.insert("label".into(), self.label_value.clone().unwrap_or(Value::Null));
            m.insert("text".into(), Value::String(self.text.clone()));
            m.insert("depth".into(), depth.into());
            m.insert("onActivePath".into(), on_active_path.into());
            m.insert("isLeaf".into(), is_leaf.into());
            Value::Object(m)
        }
    }

    /// Calls and results spread over several stretches, ids reused with other tools.
    fn session() -> Session {
        Session::from_bytes(Path::new("t"), session_text()).unwrap()
    }

    /// The text of [`session`].
    fn session_text() -> Vec<u8> {
        let mut lines = vec![
            r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#.to_string(),
        ];
        let mut parent = "null".to_string();
        for i in 0..3 * CHUNK {
            let id = format!("e{i}");
            let line = if i % 3 == 0 {
                let name = ["read", "bash", "edit"][i % 9 / 3];
                format!(
                    r#"{{"type":"message","id":"{id}","parentId":{parent},"message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c{}","name":"{name}","arguments":{{"path":"/home/u/f{i}","command":"make {i}"}}}}]}}}}"#,
                    i % 101
                )
            } else {
                format!(
                    r#"{{"type":"message","id":"{id}","parentId":{parent},"message":{{"role":"toolResult","toolCallId":"c{}","content":"out"}}}}"#,
                    (i * 7) % 131
                )
            };
            lines.push(line);
            parent = format!("\"{id}\"");
        }
        // A label, a branch back to before the last stretch, and a result whose call is
        // only on the other branch.
        let last = 3 * CHUNK - 1;
        lines.push(format!(
            r#"{{"type":"label","id":"l1","parentId":"e{last}","targetId":"e4","label":"here"}}"#
        ));
        lines.push(r#"{"type":"message","id":"z1","parentId":"l1","message":{"role":"assistant","content":[{"type":"toolCall","id":"cz","name":"grep","arguments":{"pattern":"x"}}]}}"#.to_string());
        lines.push(format!(
            r#"{{"type":"message","id":"r1","parentId":"e{}","message":{{"role":"toolResult","toolCallId":"cz","toolName":"grep","content":"x"}}}}"#,
            2 * CHUNK,
        ));
        lines.join("\n").into_bytes()
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
                let mut ours = Vec::new();
                write_json_row(&mut ours, &s, idx, gist, label, text, at);
                let r = s.record(idx);
                let theirs = serde_json::to_vec(&JsonRowFields {
                    id: JsonId(r.id.as_ref()),
                    parent_id: JsonId(r.parent_id.as_ref()),
                    payload: PayloadFields {
                        kind: gist.kind(),
                        timestamp: gist.timestamp(),
                        label: label.unwrap_or(&Value::Null),
                        text,
                    },
                    depth: at.depth,
                    on_active_path: at.on_active_path,
                    is_leaf: at.is_leaf,
                })
                .unwrap();
                assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(theirs).unwrap());
            }
        }
    }

    #[test]
    fn every_ascii_character_is_written_as_serde_json_writes_it() {
        for c in (0u8..=0x7f).map(char::from).chain(['é', '\u{2028}', '\u{fffd}']) {
            let text = format!("a{c}b");
            let mut ours = Vec::new();
            write_json_str(&mut ours, &text);
            assert_eq!(ours, serde_json::to_vec(&text).unwrap(), "{c:?}");
        }
    }

    proptest::proptest! {
        /// Any text is written as serde_json writes the string.
        #[test]
        fn strings_are_written_as_serde_json_writes_them(text in "(?s).{0,40}") {
            let mut ours = Vec::new();
            write_json_str(&mut ours, &text);
            proptest::prop_assert_eq!(ours, serde_json::to_vec(&text).unwrap());
        }
    }

    /// Every row a gist gives, read in `order`: its text, whether each filter mode shows it
    /// (as the leaf and not), and its `--json` row; the same read through a [`Viewer`].
    #[test]
    fn gists_read_in_order_give_the_rows_of_the_viewer() {
        let rows = Rows::new(Some("/home/u"));
        let (s, gists) = Session::from_bytes_with(Path::new("t"), session_text(), &rows).unwrap();
        let labels = labels(&s);
        let file_order: Vec<u32> = (0..s.records.len() as u32).collect();
        let leaf = s.leaf().unwrap();
        for order in [file_order, s.path_to_root(leaf)] {
            let mut viewer = Viewer::new(&s, Some("/home/u"));
            let mut resolver = Resolver::new();
            for &idx in &order {
                let view = viewer.view(idx).unwrap();
                let gist = &gists[idx as usize];
                let text = resolver.text(gist).unwrap();
                assert_eq!(text, view.text, "record {idx}");
                let label = labels.get(&idx);
                assert_eq!(label.map(|l| &l.0), view.label.as_ref());
                for mode in FilterMode::CYCLE {
                    for is_leaf in [false, true] {
                        assert_eq!(
                            gist.facts().shows(mode, is_leaf, label.is_some()),
                            shows(mode, &view.value, is_leaf, view.label.is_some())
                        );
                    }
                }
                let at = Placement { depth: 2, on_active_path: idx % 2 == 0, is_leaf: idx == leaf };
                let mut json = Vec::new();
                write_json_row(&mut json, &s, idx, gist, label.map(|l| &l.1), text, at);
                let expected = view.to_json_line(&s, 2, idx % 2 == 0, idx == leaf);
                assert_eq!(String::from_utf8(json).unwrap(), expected);
            }
        }
        let r1 = s.lookup(&crate::EntryId::new("r1")).unwrap();
        let mut resolver = Resolver::new();
        let path_text =
            s.path_to_root(r1).iter().map(|&i| resolver.text(&gists[i as usize])).last();
        assert_eq!(
            path_text,
            Some(Some("[grep]")),
            "the call on the other branch is not on the path"
        );
        let mut resolver = Resolver::new();
        let file_text = gists.iter().map(|g| resolver.text(g)).last();
        assert_eq!(
            file_text,
            Some(Some("[grep: /x/ in .]")),
            "in file order, the call comes first"
        );
    }

    #[test]
    fn rendering_on_every_core_matches_one_pass() {
        let s = session();
        let order: Vec<u32> = (0..s.records.len() as u32).collect();
        let mut viewer = Viewer::new(&s, Some("/home/u"));
        let one_pass: Vec<(String, String)> = order
            .iter()
            .map(|&i| {
                let view = viewer.view(i).unwrap();
                (view.text.clone(), viewer.search_text(&view))
            })
            .collect();
        let parallel = render_all(&s, Some("/home/u"), &order, |viewer, view| {
            Ok((view.text.clone(), viewer.search_text(view)))
        })
        .unwrap();
        assert_eq!(parallel, one_pass);
        for (i, _) in one_pass.iter().enumerate().step_by(97) {
            let view = viewer.view(i as u32).unwrap();
            let line = view.to_json_line(&s, 3, i % 2 == 0, i == 5);
            assert_eq!(line, view.to_json(&s, 3, i % 2 == 0, i == 5).to_string());
        }
        assert!(one_pass.iter().any(|(t, _)| t.starts_with("[bash: make")));
        assert!(one_pass.iter().any(|(t, _)| t == "[tool]"));
    }
}
