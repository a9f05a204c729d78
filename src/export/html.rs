//! The export as one self-contained HTML page.
//!
//! Nothing of the transcript runs and nothing leaves the page: every text is escaped, images
//! are `data:` URLs of raster types only, and a Content-Security-Policy allows no source but
//! the page's own style and script, named by their SHA-256. Whatever is folded (other
//! branches, tool calls and results, thinking) is kept in `<template>` elements, which the
//! browser parses but neither styles nor lays out until the script moves them into the page
//! on opening: a page of a hundred thousand entries opens as fast as the active path lays out.

use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{
    BLOCK, Image, MAIN, Options, Part, Plan, Step, base64, compare, id_of, lines, one_line,
    short_time, size, spill, view,
};
use crate::markdown::picture;
use crate::render::active_mark;
use crate::row::cut::cut_chars;
use crate::session::{Header, Session};
use crate::tree::UNICODE;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// How many levels of gutter a sidebar row shows before its oldest scroll off behind `…`.
const SIDEBAR_LEVELS: usize = 12;
/// How much of a row's text the sidebar shows, in characters.
const SIDEBAR_TEXT: usize = 160;
/// Sidebar rows per block, kept in a template until it scrolls into view.
const CHUNK: usize = 200;
/// Entries of the main thread per part, kept in a template until it scrolls into view.
const PART: usize = 100;

/// The Content-Security-Policy of a page: nothing but its own style and script, and images
/// from `data:` URLs.
pub fn policy() -> String {
    format!(
        "default-src 'none'; style-src '{}'; script-src '{}'; img-src data:; base-uri 'none'; form-action 'none'",
        hash(STYLE),
        hash(SCRIPT)
    )
}

fn hash(text: &str) -> String {
    format!("sha256-{}", base64(&Sha256::digest(text.as_bytes())))
}

/// Writes the page of `session`, laid out by `plan`, to `out`.
pub fn write(
    session: &Session,
    plan: &Plan,
    opts: &Options,
    out: &mut dyn Write,
) -> crate::Result<()> {
    let mut page = Page { buf: String::with_capacity(1 << 16), out, opts, path: &session.path };
    let (parts, main_entries) = parts(session, plan);
    page.head(session, plan)?;
    page.sidebar(session, plan, &parts)?;
    page.main(session, plan, &parts, main_entries)?;
    page.raw("<section id=\"cmp\" aria-label=\"Comparison of two branches\" hidden></section>\n");
    let parents: Vec<i64> =
        plan.parents.iter().map(|&p| if p == MAIN { -1 } else { p.into() }).collect();
    page.raw(&format!(
        "<script type=\"application/json\" id=\"branches\">{}</script>\n",
        serde_json::json!(parents)
    ));
    let rows: Vec<u32> = sidebar_rows(plan).map(|row| row.idx).collect();
    page.raw("<script type=\"application/json\" id=\"facts\">");
    page.raw(&compare::facts(session, &rows, opts)?);
    page.raw("</script>\n<script>");
    page.raw(SCRIPT);
    page.raw("</script>\n</body>\n</html>\n");
    page.flush(0)
}

/// The rows of the sidebar, in its order: those of the entries in the document.
fn sidebar_rows(plan: &Plan) -> impl Iterator<Item = &crate::tree::Row> {
    plan.layout.rows.iter().filter(|r| plan.shown[r.idx as usize])
}

/// The part of the main thread each record is shown in (directly, or inside a branch folded
/// off it), by record index; and how many entries the main thread has.
fn parts(session: &Session, plan: &Plan) -> (Vec<u32>, usize) {
    let mut part_of = vec![0u32; session.records.len()];
    let (mut depth, mut main_entries) = (0usize, 0usize);
    for step in &plan.steps {
        match *step {
            Step::Open { .. } => depth += 1,
            Step::Close => depth -= 1,
            Step::Entry(idx) => {
                main_entries += usize::from(depth == 0);
                part_of[idx as usize] = ((main_entries.max(1) - 1) / PART) as u32;
            }
        }
    }
    (part_of, main_entries)
}

struct Page<'a> {
    buf: String,
    out: &'a mut dyn Write,
    opts: &'a Options,
    path: &'a Path,
}

impl Page<'_> {
    fn raw(&mut self, s: &str) {
        self.buf.push_str(s);
    }

    /// Transcript text, redacted when asked and escaped.
    fn text(&mut self, s: &str) {
        escape(&mut self.buf, &self.opts.clean(s));
    }

    /// [`Page::text`] on its own, to place in markup.
    fn escaped(&self, s: &str) -> String {
        let mut out = String::new();
        escape(&mut out, &self.opts.clean(s));
        out
    }

    /// A link to the entry `id`, shown by its first characters.
    fn link(&self, id: &str) -> String {
        let short = self.escaped(cut_chars(id, 8));
        format!("<a href=\"#{}\"><code>{short}</code></a>", self.escaped(id))
    }

    fn flush(&mut self, at_least: usize) -> crate::Result<()> {
        spill(&mut self.buf, self.out, self.path, at_least)
    }

    fn head(&mut self, session: &Session, plan: &Plan) -> crate::Result<()> {
        let title = self.escaped(&self.opts.title);
        self.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        self.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"");
        self.raw(&policy());
        self.raw("\">\n<meta name=\"referrer\" content=\"no-referrer\">\n");
        self.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        self.raw("<meta name=\"color-scheme\" content=\"light dark\">\n");
        self.raw(&format!("<meta name=\"generator\" content=\"sesstree\">\n<title>{title}"));
        self.raw("</title>\n<style>");
        self.raw(STYLE);
        self.raw("</style>\n</head>\n<body>\n<header class=\"top\">");
        self.raw(&format!("<h1>{title}</h1>\n<p class=\"info\">"));
        let header = session.header.as_ref();
        let fields = header.map(Header::fields);
        if let Some(h) = header {
            self.raw(&format!("<span>session <code>{}</code></span> ", self.escaped(&h.id)));
        }
        if let Some(cwd) = fields.and_then(|f| f.cwd()) {
            self.raw(&format!("<span>in <code>{}</code></span> ", self.escaped(cwd)));
        }
        if let Some(ts) = fields.and_then(|f| f.timestamp()) {
            self.raw(&format!("<span>started {}</span> ", self.escaped(&short_time(Some(ts)))));
        }
        let entries = plan.layout.rows.len();
        self.raw(&format!("<span>{entries} entries</span> <span>{}</span>", plan.off_path()));
        if let Some(leaf) = self.opts.leaf {
            let id = self.escaped(id_of(session, leaf));
            self.raw(&format!(" <span>leaf <a href=\"#{id}\"><code>{id}</code></a></span>"));
        }
        self.raw("</p>\n</header>\n<div class=\"layout\">\n");
        self.flush(0)
    }

    fn sidebar(&mut self, session: &Session, plan: &Plan, parts: &[u32]) -> crate::Result<()> {
        self.raw("<nav id=\"side\" aria-label=\"Tree\"><div class=\"find\"><input id=\"q\" type=\"search\" placeholder=\"Search entries\" autocomplete=\"off\" spellcheck=\"false\" aria-label=\"Search entries\"><span id=\"count\"></span><button id=\"compare\" type=\"button\" aria-pressed=\"false\" title=\"Compare two branches: pick two entries of the tree\">Compare</button><button id=\"fold\" type=\"button\" aria-controls=\"tree\">Tree</button></div>\n<div class=\"modes\" role=\"group\" aria-label=\"Filter\"><button type=\"button\" data-m=\"d\" class=\"on\" title=\"Hide settings entries\">Default</button><button type=\"button\" data-m=\"n\" title=\"Default minus tool results\">No tools</button><button type=\"button\" data-m=\"u\" title=\"User messages only\">User</button><button type=\"button\" data-m=\"l\" title=\"Labelled entries only\">Labelled</button><button type=\"button\" data-m=\"a\" title=\"Every entry\">All</button></div>\n<p id=\"say\" role=\"status\" hidden></p>\n<div id=\"tree\" data-m=\"d\">");
        let rows: Vec<&crate::tree::Row> = sidebar_rows(plan).collect();
        for chunk in rows.chunks(CHUNK) {
            self.raw(&format!("<div class=\"ck\" data-n=\"{}\"><template>", chunk.len()));
            for row in chunk {
                let id = id_of(session, row.idx);
                self.raw("<a class=\"r");
                if row.on_active_path {
                    self.raw(" on");
                }
                if row.is_leaf {
                    self.raw(" leaf");
                }
                // The filters that show the row, as classes the sidebar's filter buttons select.
                for (bit, class) in [" fd", " fn", " fu", " fl"].iter().enumerate() {
                    if plan.filters[row.idx as usize] & (1 << bit) != 0 {
                        self.raw(class);
                    }
                }
                self.raw(&format!("\" href=\"#{}\"", self.escaped(id)));
                let b = plan.branch_of[row.idx as usize];
                if b != MAIN {
                    self.raw(&format!(" data-b=\"{b}\""));
                }
                self.raw(&format!(" data-c=\"{}\"><span class=\"g\">", parts[row.idx as usize]));
                self.raw(&plan.layout.prefix(row, &UNICODE, Some(SIDEBAR_LEVELS)));
                if row.on_active_path {
                    self.raw(UNICODE.bullet);
                }
                let short = self.escaped(cut_chars(id, 8));
                self.raw(&format!("</span><span class=\"i\">{short}</span> "));
                if let Some(label) = plan.labels.get(&row.idx) {
                    self.raw(&format!("<span class=\"lb\">{}</span> ", self.escaped(label)));
                }
                self.text(&one_line(&plan.texts[row.idx as usize], SIDEBAR_TEXT));
                if row.is_leaf {
                    self.raw(&format!(" <span class=\"act\">{}</span>", active_mark(false)));
                }
                self.raw("</a>");
                self.flush(BLOCK)?;
            }
            self.raw("</template></div>");
        }
        self.raw("</div></nav>\n<main id=\"main\">\n");
        self.flush(0)
    }

    fn main(
        &mut self,
        session: &Session,
        plan: &Plan,
        parts: &[u32],
        main_entries: usize,
    ) -> crate::Result<()> {
        if plan.steps.is_empty() {
            self.raw("<p class=\"note\">This session has no entries.</p>\n");
        }
        // The main thread in parts, each in a template until it is near the view: a page of
        // any length builds only the elements of what is shown.
        let leaf_part = self.opts.leaf.map(|l| parts[l as usize]);
        let mut depth = 0usize;
        let mut open_part: Option<u32> = None;
        for step in &plan.steps {
            if let (0, Step::Entry(idx) | Step::Open { first: idx, .. }) = (depth, *step)
                && open_part != Some(parts[idx as usize])
            {
                let part = parts[idx as usize];
                if open_part.is_some() {
                    self.raw("</template></section>\n");
                }
                let n = PART.min(main_entries.saturating_sub(part as usize * PART));
                let class = if Some(part) == leaf_part { "part leafpart" } else { "part" };
                self.raw(&format!(
                    "<section class=\"{class}\" id=\"p{part}\" data-n=\"{n}\"><template>"
                ));
                open_part = Some(part);
            }
            match *step {
                Step::Open { branch, first } => {
                    depth += 1;
                    let n = plan.sizes[first as usize];
                    self.raw(&format!(
                        "<details class=\"br\" id=\"b{branch}\"><summary>⎇ Branch of {n} entr{}",
                        if n == 1 { "y" } else { "ies" }
                    ));
                    if let Some(p) = session.parent(first) {
                        let from = self.escaped(cut_chars(id_of(session, p), 8));
                        self.raw(&format!(" from <code>{from}</code>"));
                    }
                    let text = self.escaped(&one_line(&plan.texts[first as usize], 120));
                    self.raw(&format!(": {text}</summary><template>"));
                }
                Step::Close => {
                    depth -= 1;
                    self.raw("</template></details>\n");
                }
                Step::Entry(idx) => self.entry(session, plan, idx),
            }
            self.flush(BLOCK)?;
        }
        if open_part.is_some() {
            self.raw("</template></section>\n");
        }
        self.raw("</main>\n</div>\n");
        self.flush(0)
    }

    fn entry(&mut self, session: &Session, plan: &Plan, idx: u32) {
        let v = view(session, plan, self.opts, idx);
        let id = self.escaped(id_of(session, idx));
        let leaf = self.opts.leaf == Some(idx);
        self.raw("<article class=\"e ");
        self.raw(v.class);
        if plan.branch_of[idx as usize] == MAIN {
            self.raw(" on");
        }
        if leaf {
            self.raw(" leaf");
        }
        self.raw(&format!("\" id=\"{id}\"><div class=\"h\"><a class=\"id\" href=\"#{id}\" title=\"link to this entry; `sesstree checkout {id}` goes back to it\">{id}</a>"));
        self.raw(&format!(" <span class=\"who\">{}</span>", self.escaped(&v.who)));
        if let Some(label) = plan.labels.get(&idx) {
            self.raw(&format!(" <span class=\"lb\">{}</span>", self.escaped(label)));
        }
        if leaf {
            self.raw(&format!(" <span class=\"act\">{}</span>", active_mark(false)));
        }
        if !v.time.is_empty() {
            self.raw(&format!(" <time>{}</time>", self.escaped(&v.time)));
        }
        self.raw("</div>");
        for part in &v.parts {
            self.part(part, &v);
        }
        self.raw("</article>\n");
    }

    /// A folded part: `summary` (markup) over `text`, kept in a template until it is opened.
    fn folded(&mut self, class: &str, summary: &str, text: &str, pre: bool) {
        let (open, close) = if pre { ("<pre>", "</pre>") } else { ("<div class=\"t\">", "</div>") };
        self.raw(&format!("<details class=\"f {class}\"><summary>{summary}</summary><template>"));
        self.raw(open);
        self.text(text);
        self.raw(close);
        self.raw("</template></details>");
    }

    fn part(&mut self, part: &Part, v: &super::View) {
        match part {
            Part::Text(t) if t.trim().is_empty() => {}
            Part::Text(t) => {
                self.raw("<div class=\"t\">");
                self.text(t);
                self.raw("</div>");
            }
            Part::Thinking(t) => self.folded("th", &format!("Thinking · {}", lines(t)), t, false),
            Part::Call { name, gist, args } => {
                let summary = format!("<b>{}</b> {}", self.escaped(name), self.escaped(gist));
                self.folded("call", &summary, args, true);
            }
            Part::Output { title, error, text } => {
                let class = if *error { "out err" } else { "out" };
                self.folded(class, &self.escaped(title), text, true);
            }
            Part::Image(img) => self.image(img),
            Part::Summary(t) if v.class == "compaction" => {
                self.folded("sum", &format!("Compaction summary · {}", lines(t)), t, false);
            }
            Part::Summary(t) => {
                self.raw("<div class=\"sum\">");
                if let Some(from) = &v.refers {
                    let link = self.link(from);
                    self.raw(&format!(
                        "<p class=\"note\">What was tried on the branch left at {link}:</p>"
                    ));
                }
                self.raw("<div class=\"t\">");
                self.text(t);
                self.raw("</div></div>");
            }
            Part::Note(t) => {
                self.raw("<div class=\"note\">");
                self.text(t);
                if v.class == "compaction"
                    && let Some(kept) = &v.refers
                {
                    self.raw(&format!(" Kept from {}.", self.link(kept)));
                }
                self.raw("</div>");
            }
        }
    }

    fn image(&mut self, img: &Image) {
        let mime = if img.mime.is_empty() { "no type" } else { &img.mime };
        let size = img.bytes.map(|b| format!(", {}", size(b))).unwrap_or_default();
        let what = self.escaped(&format!("{mime}{size}"));
        match &img.data {
            Ok(data) => {
                let mime = self.escaped(&img.mime);
                self.raw(&format!("<img alt=\"image ({what})\" src=\"data:{mime};base64,"));
                self.raw(data);
                self.raw("\">");
            }
            Err(why) => self.raw(&format!("<div class=\"ph\">[image: {what} — {why}]</div>")),
        }
    }
}

/// Appends `s` escaped for HTML text and attribute values; control characters (but tab and
/// line feed) become their visible pictures (U+2400…), so nothing invisible reaches the page.
pub fn escape(buf: &mut String, s: &str) {
    let (mut start, mut pic) = (0, [0; 4]);
    for (i, c) in s.char_indices() {
        let rep = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            '\r' => "",
            c => match picture(c) {
                Some(p) => p.encode_utf8(&mut pic),
                None => continue,
            },
        };
        buf.push_str(&s[start..i]);
        buf.push_str(rep);
        start = i + c.len_utf8();
    }
    buf.push_str(&s[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(s: &str) -> String {
        let mut b = String::new();
        escape(&mut b, s);
        b
    }

    #[test]
    fn markup_and_controls_are_escaped() {
        assert_eq!(esc("<script>a&b</script>"), "&lt;script&gt;a&amp;b&lt;/script&gt;");
        assert_eq!(esc("\"x\" 'y'"), "&quot;x&quot; &#39;y&#39;");
        assert_eq!(esc("a\u{1b}[31mb\u{0}\r\n\t"), "a\u{241b}[31mb\u{2400}\n\t");
        assert_eq!(esc("\u{85}é"), "\u{fffd}é");
    }

    #[test]
    fn the_policy_names_the_page_s_own_style_and_script() {
        let p = policy();
        assert!(p.starts_with("default-src 'none'; style-src 'sha256-"), "{p}");
        assert!(p.contains(&hash(SCRIPT)));
        assert!(!p.contains("unsafe"));
        // The hash is of the bytes between the tags, which the page writes unchanged.
        assert_eq!(hash("a"), "sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=");
    }
}
