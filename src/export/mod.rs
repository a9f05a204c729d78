//! A session's whole tree as one document to read or share (`sesstree export`): a
//! self-contained HTML page ([`html`]) or Markdown ([`markdown`]).
//!
//! Both walk the tree the same way ([`Plan`]): the active path from the root to the leaf,
//! and after each entry where the conversation branched, every other branch, folded, with its
//! own branches inside it in turn. Each entry is read once, in that order, and turned into
//! [`Part`]s (text, thinking, tool calls and results, images, summaries) that the two writers
//! render; nothing of a transcript is ever written unescaped.

mod compare;
pub mod html;
pub mod markdown;
mod redact;

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use redact::Redactor;

use crate::context;
use crate::error::Result;
use crate::format::Dialect;
use crate::format::entry::{self, Block, Content, Message, Payload, Raw, Role, Text};
use crate::row::gist::{Gist, resolve_each};
use crate::row::read_text;
use crate::row::text::FilterMode;
use crate::session::Session;
use crate::tree::{Layout, TreeOptions, layout};

/// What to export and how.
#[derive(Debug, Default)]
pub struct Options {
    /// The entry taken as the leaf (the active path ends there); `None` when `@` is undefined.
    pub leaf: Option<u32>,
    /// Leave out every branch but the active path.
    pub active_only: bool,
    /// Replace API-key-shaped strings and the home directory (`--redact`).
    pub redact: Option<Redactor>,
    /// The home directory, for the rows' shortened paths.
    pub home: Option<String>,
    /// Where oh-my-pi keeps images a session names by `blob:sha256:<hex>`.
    pub blobs: Option<PathBuf>,
    /// The title of the document.
    pub title: String,
}

impl Options {
    /// `text` redacted, when asked.
    fn clean<'t>(&self, text: &'t str) -> Cow<'t, str> {
        self.redact.as_ref().map_or(Cow::Borrowed(text), |r| r.apply(text))
    }
}

/// No branch: an entry of the main thread.
pub const MAIN: u32 = u32::MAX;

/// One step of the walk, in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// An entry (record index).
    Entry(u32),
    /// A folded branch starts, at the entry `first` (its first entry).
    Open {
        /// The branch's number.
        branch: u32,
        /// Its first entry.
        first: u32,
    },
    /// The innermost open branch ends.
    Close,
}

/// The walk of a session's tree: the steps, the branches and the rows of the sidebar.
#[derive(Debug)]
pub struct Plan {
    /// The selector's layout (the sidebar's rows).
    pub layout: Layout,
    /// The document's order.
    pub steps: Vec<Step>,
    /// Each record's branch ([`MAIN`] on the main thread, or not laid out).
    pub branch_of: Vec<u32>,
    /// Each branch's enclosing branch ([`MAIN`] for one folded off the main thread).
    pub parents: Vec<u32>,
    /// How many entries each record's subtree holds (itself included).
    pub sizes: Vec<u32>,
    /// Each record's one-line row text, as `tree` shows it.
    pub texts: Vec<String>,
    /// Each record's label.
    pub labels: std::collections::HashMap<u32, String>,
    /// Which of the selector's filters show each record: bit 0 `default`, 1 `no-tools`,
    /// 2 `user-only`, 3 `labeled-only` ([`FILTERS`]).
    pub filters: Vec<u8>,
    /// Whether each record is in the document (with `--active-only`, only the path is).
    pub shown: Vec<bool>,
}

/// The selector's filters a sidebar offers, by bit of [`Plan::filters`] (`all` shows every
/// row).
pub const FILTERS: [FilterMode; 4] =
    [FilterMode::Default, FilterMode::NoTools, FilterMode::UserOnly, FilterMode::LabeledOnly];

impl Plan {
    /// Lays out `session` (loaded with [`crate::row::Rows`], whose `gists` give the rows).
    pub fn new(session: &Session, gists: &[Gist], opts: &Options) -> Result<Plan> {
        let n = session.records.len();
        let tree = layout(
            session,
            &TreeOptions { leaf: opts.leaf, include_archived: false, active_first: true },
        );
        let labels = session.label_map();
        let (mut in_layout, mut on_path) = (vec![false; n], vec![false; n]);
        let mut filters = vec![0u8; n];
        for row in &tree.rows {
            let i = row.idx as usize;
            in_layout[i] = true;
            on_path[i] = row.on_active_path;
            let facts = gists[i].facts();
            for (bit, mode) in FILTERS.iter().enumerate() {
                if facts.shows(*mode, row.is_leaf, labels.contains_key(&row.idx)) {
                    filters[i] |= 1 << bit;
                }
            }
        }
        // Children in display order, from the layout's pre-order.
        let parent = |idx| session.parent(idx).filter(|&p| in_layout[p as usize]);
        let mut kids = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for row in &tree.rows {
            match parent(row.idx) {
                Some(p) => kids[p as usize].push(row.idx),
                None => roots.push(row.idx),
            }
        }
        let mut sizes = vec![1u32; n];
        for row in tree.rows.iter().rev() {
            if let Some(p) = parent(row.idx) {
                sizes[p as usize] = sizes[p as usize].saturating_add(sizes[row.idx as usize]);
            }
        }
        // The walk, with an explicit stack: a chain or a nesting of any depth cannot overflow.
        enum Task {
            Entry(u32, bool),
            Open(u32),
            Close,
        }
        let mut steps = Vec::with_capacity(n + 16);
        let mut branch_of = vec![MAIN; n];
        let mut shown = vec![false; n];
        let mut parents = Vec::new();
        let mut open: Vec<u32> = Vec::new();
        let mut stack = Vec::new();
        // The roots: the one on the active path is the main thread, the others are branches.
        let main_root = roots.iter().position(|&r| on_path[r as usize]).unwrap_or(0);
        let push_kids = |stack: &mut Vec<Task>, list: &[u32], cont: Option<usize>, main| {
            if let Some(c) = cont {
                stack.push(Task::Entry(list[c], main));
            }
            if opts.active_only && main {
                return;
            }
            for (i, &k) in list.iter().enumerate().rev() {
                if Some(i) != cont {
                    stack.push(Task::Close);
                    stack.push(Task::Open(k));
                }
            }
        };
        if !roots.is_empty() {
            push_kids(&mut stack, &roots, Some(main_root), true);
        }
        while let Some(task) = stack.pop() {
            match task {
                Task::Entry(idx, main) => {
                    steps.push(Step::Entry(idx));
                    shown[idx as usize] = true;
                    branch_of[idx as usize] = open.last().copied().unwrap_or(MAIN);
                    let list = &kids[idx as usize];
                    let cont = if main {
                        list.iter().position(|&k| on_path[k as usize])
                    } else {
                        (!list.is_empty()).then_some(0)
                    };
                    push_kids(&mut stack, list, cont, main);
                }
                Task::Open(first) => {
                    let branch = parents.len() as u32;
                    parents.push(open.last().copied().unwrap_or(MAIN));
                    open.push(branch);
                    steps.push(Step::Open { branch, first });
                    stack.push(Task::Entry(first, false));
                }
                Task::Close => {
                    open.pop();
                    steps.push(Step::Close);
                }
            }
        }
        let mut texts = row_texts(session, gists, &tree, opts.home.as_deref())?;
        // Redacted whole, before the sidebar and the summaries cut them.
        if let Some(r) = &opts.redact {
            texts = texts.iter().map(|t| r.apply(t).into_owned()).collect();
        }
        Ok(Plan { layout: tree, steps, branch_of, parents, sizes, texts, labels, filters, shown })
    }
}

impl Plan {
    /// How many branches the tree has off the active path, in words.
    pub fn off_path(&self) -> String {
        let n = self.parents.len();
        format!("{n} branch{} off the active path", if n == 1 { "" } else { "es" })
    }
}

/// Each record's row text (empty for a record not laid out), resolved in file order as `tree`
/// resolves it: a tool result's row names its call.
fn row_texts(
    session: &Session,
    gists: &[Gist],
    tree: &Layout,
    home: Option<&str>,
) -> Result<Vec<String>> {
    let order = tree.file_order(session.records.len());
    let read: Vec<&Gist> =
        order.iter().map(|&i| &gists[tree.rows[i as usize].idx as usize]).collect();
    let resolved = resolve_each(&read, |pos, text| Some((pos, text.text().map(str::to_owned))));
    let mut texts = vec![String::new(); session.records.len()];
    for (pos, text) in resolved {
        let idx = tree.rows[order[pos] as usize].idx;
        texts[idx as usize] = match text {
            Some(t) => t,
            None if read[pos].is_unreadable() => "[unreadable entry]".to_owned(),
            None => read_text(session, idx, home)?,
        };
    }
    Ok(texts)
}

/// How much of a document is gathered before it is written out, in bytes.
const BLOCK: usize = 1 << 16;

/// Writes `buf` out to `out` (the document of the session at `path`) when it holds at least
/// `at_least` bytes.
fn spill(buf: &mut String, out: &mut dyn Write, path: &Path, at_least: usize) -> Result<()> {
    if buf.len() >= at_least {
        out.write_all(buf.as_bytes()).map_err(|e| crate::Error::io(path, e))?;
        buf.clear();
    }
    Ok(())
}

/// An image of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Its declared media type.
    pub mime: String,
    /// Its base64 data, when it may be shown (a raster `image/*` type, with data at hand);
    /// else why it is not shown.
    pub data: std::result::Result<String, &'static str>,
    /// Its size in bytes (decoded), when known.
    pub bytes: Option<u64>,
}

/// One piece of an entry as the export shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Text the user, the agent or an extension wrote.
    Text(String),
    /// A thinking block (folded).
    Thinking(String),
    /// A tool call (folded): the tool, a one-line gist, and the arguments as pretty JSON.
    Call {
        /// The tool's name.
        name: String,
        /// Its main argument, on one line.
        gist: String,
        /// All arguments.
        args: String,
    },
    /// A tool's or a command's output (folded).
    Output {
        /// What it is the output of, on one line.
        title: String,
        /// Whether it is an error.
        error: bool,
        /// The text.
        text: String,
    },
    /// An image.
    Image(Image),
    /// A branch or compaction summary (shown; a compaction's folded).
    Summary(String),
    /// A line of bookkeeping: what the entry records (model change, label, custom data…).
    Note(String),
}

/// One entry as the export shows it.
#[derive(Debug, Clone)]
pub struct View {
    /// The class of entry: `user`, `assistant`, `tool`, `bash`, `custom`, `system`,
    /// `branch-summary`, `compaction`, `meta`, `error`.
    pub class: &'static str,
    /// Who or what: the role, or the entry type.
    pub who: String,
    /// The timestamp, as `YYYY-MM-DD HH:MM:SS` when it is ISO-8601.
    pub time: String,
    /// The entry a summary or compaction points at (`fromId`, `firstKeptEntryId`).
    pub refers: Option<String>,
    /// What it shows.
    pub parts: Vec<Part>,
}

/// The longest a one-line gist gets, in characters.
const GIST: usize = 100;

/// Reads record `idx` of the `plan` and makes its [`View`]. With `--redact`, every string of
/// the entry is redacted whole, before any of it is cut to a gist or a title, so that no cut
/// leaves part of a key behind.
pub fn view(session: &Session, plan: &Plan, opts: &Options, idx: u32) -> View {
    match session.value(idx) {
        Ok(mut value) => {
            if let Some(r) = &opts.redact {
                redact_strings(&mut value, r);
            }
            let mut v = view_of(&value, &plan.texts[idx as usize], opts.blobs.as_deref());
            if let Some(message) = Payload::from_value(&value).message()
                && message.role == Some(Role::System)
            {
                system_view(session, idx, &message.members.to_value(), opts, &mut v);
            }
            v
        }
        Err(e) => View {
            class: "error",
            who: "unreadable".into(),
            time: String::new(),
            refers: None,
            parts: vec![Part::Note(format!("this entry cannot be read: {e}"))],
        },
    }
}

/// The view of a pi system message, which patches the prompt of the ones before it (CHANGES
/// R1): the prompt in effect at the entry first, folded over the context there as pi 1.6.0's
/// `getCurrentSystemMessage` folds it, with its tools; then, for a patch, what it changes, as
/// pi 1.6.0's own HTML export says it. The context's rules are ported from pi's JavaScript
/// over parsed values.
fn system_view(session: &Session, idx: u32, message: &Value, opts: &Options, v: &mut View) {
    let path = context::path_values(session, idx).unwrap_or_default();
    let messages = context::build(path, None, Dialect::Pi).agent_messages;
    let mut prompt = context::current_system_message(&messages).unwrap_or_else(|| message.clone());
    if let Some(r) = &opts.redact {
        redact_strings(&mut prompt, r);
    }
    let text = context::system_message_text(&prompt);
    v.class = "system";
    v.parts = vec![Part::Output {
        title: format!("system prompt · {}", lines(&text)),
        error: false,
        text,
    }];
    let tools = context::tool_names(&prompt, "toolsAdded");
    if !tools.is_empty() {
        v.parts.push(Part::Note(format!("tools: {}", tools.join(", "))));
    }
    let system = |m: &&Value| Message::from_value(m).role == Some(Role::System);
    if messages.iter().filter(system).count() > 1 {
        v.who = format!("system prompt update: {}", context::system_update_summary(message));
        let update = context::system_update_text(message);
        if !update.is_empty() {
            v.parts.push(Part::Text(update));
        }
    } else {
        v.who = "system prompt".into();
    }
}

/// Redacts every string of `value` in place (keys of objects are left as they are).
fn redact_strings(value: &mut Value, r: &Redactor) {
    match value {
        Value::String(s) => *s = r.apply(s).into_owned(),
        Value::Array(items) => items.iter_mut().for_each(|v| redact_strings(v, r)),
        Value::Object(map) => map.values_mut().for_each(|v| redact_strings(v, r)),
        _ => {}
    }
}

/// The [`View`] of an entry's value.
pub fn view_of(value: &Value, row: &str, blobs: Option<&Path>) -> View {
    let owned = |t: Option<Text<'_>>| t.map(|t| t.decode().into_owned());
    // The envelope: its type and time.
    let entry = Raw::new(value).object().unwrap_or_default();
    let kind = entry.text("type").map(|t| t.decode()).unwrap_or_default();
    let time = short_time(entry.text("timestamp").map(|t| t.decode()).as_deref());
    let mut v =
        View { class: "meta", who: kind.replace('_', " "), time, refers: None, parts: vec![] };
    match Payload::from_value(value) {
        Payload::Message(m) => {
            v.who = m.role.map(|r| r.as_str()).unwrap_or_default().to_owned();
            let text = |key: &str| owned(m.text(key));
            match m.role {
                Some(Role::User | Role::Developer) => {
                    v.class = "user";
                    content(&m.content, &mut v.parts, blobs);
                }
                Some(Role::Assistant) => {
                    v.class = "assistant";
                    if let Some(model) = text("model") {
                        v.who = format!("assistant · {model}");
                    }
                    content(&m.content, &mut v.parts, blobs);
                    if let Some(e) = text("errorMessage") {
                        v.parts.push(Part::Output { title: "error".into(), error: true, text: e });
                    }
                }
                Some(Role::ToolResult) => {
                    v.class = "tool";
                    let tool = text("toolName").unwrap_or_else(|| "tool".into());
                    v.who = format!("result of {tool}");
                    let error = m.is_error();
                    let mut inner = Vec::new();
                    content(&m.content, &mut inner, blobs);
                    let text = texts_of(&mut inner);
                    let title = output_title(row, &text, error);
                    v.parts.push(Part::Output { title, error, text });
                    v.parts.extend(inner);
                }
                Some(Role::BashExecution | Role::PythonExecution) => {
                    v.class = "bash";
                    let code = text("command").or_else(|| text("code")).unwrap_or_default();
                    let exit = m.members.member("exitCode").and_then(|c| c.as_i64());
                    v.parts.push(Part::Text(code));
                    let out = text("output").unwrap_or_default();
                    let exit_code = exit.map(|c| format!("exit {c} · ")).unwrap_or_default();
                    let title = format!("output · {exit_code}{}", lines(&out));
                    let error = exit.is_some_and(|c| c != 0);
                    v.parts.push(Part::Output { title, error, text: out });
                }
                Some(Role::Custom | Role::HookMessage) => {
                    v.class = "custom";
                    v.who = text("customType").map_or("custom".into(), |t| format!("[{t}]"));
                    content(&m.content, &mut v.parts, blobs);
                }
                _ => {
                    v.parts.push(Part::Note(row.to_owned()));
                }
            }
        }
        Payload::CustomMessage(m) => {
            v.class = "custom";
            v.who = owned(m.custom_type).map_or("custom message".into(), |t| format!("[{t}]"));
            content(&m.content, &mut v.parts, blobs);
        }
        Payload::BranchSummary(summary) => {
            v.class = "branch-summary";
            v.who = "branch summary".into();
            v.refers = owned(summary.members.text("fromId"));
            v.parts.push(Part::Summary(owned(summary.members.text("summary")).unwrap_or_default()));
        }
        Payload::Compaction(summary) => {
            v.class = "compaction";
            v.who = "compaction".into();
            v.refers = owned(summary.members.text("firstKeptEntryId"));
            let before = summary.members.member("tokensBefore").and_then(|t| t.as_u64());
            let from = before.map(|t| format!(" from {t} tokens")).unwrap_or_default();
            v.parts.push(Part::Note(format!("Context compacted{from}; the model sees the summary below, then the entries from the one it keeps.")));
            v.parts.push(Part::Summary(owned(summary.members.text("summary")).unwrap_or_default()));
        }
        // Bookkeeping: the row says it all.
        Payload::Setting(_) | Payload::Bookkeeping(_) | Payload::Other(_) | Payload::Record(_) => {
            v.parts.push(Part::Note(row.to_owned()));
        }
    }
    v
}

/// The parts of message content: a string, or blocks.
fn content(c: &Content<'_>, parts: &mut Vec<Part>, blobs: Option<&Path>) {
    match c {
        Content::Text(t) => parts.push(Part::Text(t.decode().into_owned())),
        Content::Blocks(blocks) => blocks.iter().for_each(|b| block(b, parts, blobs)),
        Content::Absent => {}
    }
}

fn block(b: &Block<'_>, parts: &mut Vec<Part>, blobs: Option<&Path>) {
    let text = |t: &Option<Text<'_>>| t.map(|t| t.decode().into_owned()).unwrap_or_default();
    match b {
        Block::Text(t) => parts.push(Part::Text(text(t))),
        Block::Thinking(t) => parts.push(Part::Thinking(text(t))),
        Block::Other(Some(kind)) if kind.is("redactedThinking") => {
            parts.push(Part::Note("[thinking, redacted by the provider]".into()));
        }
        Block::ToolCall(call) => {
            let args = call.arguments.map_or(Cow::Owned(Value::Null), |a| a.to_value());
            parts.push(Part::Call {
                gist: call_gist(&args),
                args: serde_json::to_string_pretty(&*args).unwrap_or_default(),
                name: text(&call.name),
            });
        }
        Block::Image(img) => parts.push(Part::Image(image(img, blobs))),
        Block::Other(kind) => {
            parts.push(Part::Note(format!("[{} block]", text(kind).replace('_', " "))));
        }
    }
}

/// The main argument of a tool call, on one line.
fn call_gist(args: &Value) -> String {
    let object = Raw::new(args).object();
    for key in ["command", "path", "file_path", "pattern", "query", "url"] {
        if let Some(v) = object.as_ref().and_then(|o| o.text(key)) {
            return one_line(&v.decode(), GIST);
        }
    }
    match args {
        Value::Object(m) if m.is_empty() => String::new(),
        Value::Null => String::new(),
        _ => one_line(&args.to_string(), GIST),
    }
}

/// The text parts of `parts` joined (taken out), leaving the others.
fn texts_of(parts: &mut Vec<Part>) -> String {
    let mut text = String::new();
    parts.retain(|p| match p {
        Part::Text(t) => {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(t);
            false
        }
        _ => true,
    });
    text
}

/// A tool result's title: its row (which names the call) and how long it is.
fn output_title(row: &str, text: &str, error: bool) -> String {
    let row = row.strip_prefix("[").and_then(|r| r.strip_suffix("]")).unwrap_or(row);
    let error = if error { " · error" } else { "" };
    format!("{} · {}{error}", one_line(row, GIST), lines(text))
}

fn lines(text: &str) -> String {
    match text.lines().count() {
        0 => "empty".into(),
        1 => "1 line".into(),
        n => format!("{n} lines"),
    }
}

/// `text` on one line (line breaks as spaces), cut to `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
    let space = |c| if matches!(c, '\n' | '\r' | '\t') { ' ' } else { c };
    crate::terminal::ellipsize(text, max).chars().map(space).collect()
}

/// The raster image types a page shows inline; any other (SVG first of all: it can hold
/// script) is a placeholder.
const RASTER: &[&str] =
    &["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp", "image/avif", "image/bmp"];

/// An image block, with its data when it may be shown.
fn image(b: &entry::Image<'_>, blobs: Option<&Path>) -> Image {
    let mime = b.mime_type.map(|t| t.decode().to_ascii_lowercase()).unwrap_or_default();
    let data = b.data.map(|t| t.decode()).unwrap_or_default();
    let data = &*data;
    let (data, bytes) = match crate::format::blob_ref(data) {
        Some(hex) => match read_blob(hex, blobs) {
            Some(bytes) => (Cow::Owned(base64(&bytes)), bytes.len() as u64),
            None => return Image { mime, data: Err("not in the blob store"), bytes: None },
        },
        None => (Cow::Borrowed(data), data.len() as u64 / 4 * 3),
    };
    let data = if !RASTER.contains(&mime.as_str()) {
        Err("not a raster image type; not shown")
    } else if data.is_empty() {
        Err("no data")
    } else if !data.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')) {
        Err("data is not base64; not shown")
    } else {
        Ok(data.into_owned())
    };
    Image { mime, data, bytes: Some(bytes) }
}

/// The bytes of an oh-my-pi blob, when `hex` is a SHA-256 and the store holds it.
fn read_blob(hex: &str, blobs: Option<&Path>) -> Option<Vec<u8>> {
    std::fs::read(crate::format::blob_file(blobs?, hex)?).ok()
}

/// Standard base64, padded.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ABC[(n >> shift & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A timestamp as `YYYY-MM-DD HH:MM:SS` when it is ISO-8601, else as written.
pub fn short_time(ts: Option<&str>) -> String {
    match ts {
        Some(t)
            if t.as_bytes().get(10) == Some(&b'T')
                && t.as_bytes().get(..19).is_some_and(|b| b.is_ascii()) =>
        {
            format!("{} {}", &t[..10], &t[11..19])
        }
        Some(t) => one_line(t, 40),
        None => String::new(),
    }
}

/// The id of a record, or `-`.
pub fn id_of(session: &Session, idx: u32) -> &str {
    session.record(idx).id.as_ref().map_or("-", |i| i.as_str())
}

/// A size in bytes, for people.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{:.1} KB", b as f64 / 1024.0),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn base64_pads() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    /// The image of an `image` block, read through its payload view.
    fn image_of(block: &Value, blobs: Option<&Path>) -> Image {
        let block = Raw::new(block).object().unwrap_or_default();
        image(&entry::Image { mime_type: block.text("mimeType"), data: block.text("data") }, blobs)
    }

    #[test]
    fn svg_and_odd_images_are_placeholders() {
        let svg = json!({"type":"image","mimeType":"image/svg+xml","data":"PHN2Zz4="});
        let img = image_of(&svg, None);
        assert!(img.data.is_err());
        let png = json!({"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="});
        assert_eq!(image_of(&png, None).data.as_deref(), Ok("iVBORw0KGgo="));
        let quote = json!({"type":"image","mimeType":"image/png","data":"a\"onerror=x"});
        assert!(image_of(&quote, None).data.is_err());
        let html = json!({"type":"image","mimeType":"text/html","data":"PGI+"});
        assert!(image_of(&html, None).data.is_err());
    }

    #[test]
    fn blobs_are_read_by_their_hash_only() {
        let dir = tempfile::tempdir().unwrap();
        let hex = "a".repeat(64);
        std::fs::write(dir.path().join(&hex), b"\x89PNG").unwrap();
        let b = json!({"type":"image","mimeType":"image/png","data":format!("blob:sha256:{hex}")});
        let img = image_of(&b, Some(dir.path()));
        assert_eq!(img.data.as_deref(), Ok("iVBORw=="));
        assert_eq!(img.bytes, Some(4));
        let escape =
            json!({"type":"image","mimeType":"image/png","data":"blob:sha256:../../etc/passwd"});
        assert_eq!(image_of(&escape, Some(dir.path())).data, Err("not in the blob store"));
    }
}
