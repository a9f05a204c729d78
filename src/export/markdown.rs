//! The export as Markdown: the active path as the document's main section, and each other
//! branch as a sub-section right after the entry it branched from, readable on GitHub.
//!
//! Transcript text is Markdown already, and is kept so, with what would break the document
//! out of its place taken away: a line that would read as a heading (a summary's `## Goal`)
//! is escaped, so the document's own headings are the only ones; raw HTML is escaped, so no
//! `</details>` of a transcript closes one of the document's; a code fence left open is
//! closed. Folded parts (tool calls and results, thinking, compaction summaries) are
//! `<details>` blocks, which GitHub folds.

use std::io::Write;

use super::html::escape;
use super::{
    BLOCK, Image, Options, Part, Plan, Step, View, id_of, lines, one_line, short_time, size, spill,
    view,
};
use crate::markdown::{pictures, safe_markdown};
use crate::render::active_mark;
use crate::row::cut::cut_chars;
use crate::session::{Header, Session};

/// The deepest heading Markdown has.
const DEEPEST: usize = 6;

/// Writes the Markdown of `session`, laid out by `plan`, to `out`.
pub fn write(
    session: &Session,
    plan: &Plan,
    opts: &Options,
    out: &mut dyn Write,
) -> crate::Result<()> {
    let mut doc = Doc { buf: String::with_capacity(1 << 16), opts };
    doc.buf.push_str(&format!("# {}\n\n", doc.line(&opts.title)));
    let header = session.header.as_ref();
    let fields = header.map(Header::fields);
    if let Some(h) = header {
        doc.buf.push_str(&format!("- Session: {}\n", doc.code(&h.id)));
    }
    if let Some(cwd) = fields.and_then(|f| f.cwd()) {
        doc.buf.push_str(&format!("- Directory: {}\n", doc.code(cwd)));
    }
    if let Some(ts) = fields.and_then(|f| f.timestamp()) {
        doc.buf.push_str(&format!("- Started: {}\n", doc.line(&short_time(Some(ts)))));
    }
    doc.buf.push_str(&format!("- {} entries, {}", plan.layout.rows.len(), plan.off_path()));
    if let Some(leaf) = opts.leaf {
        doc.buf.push_str(&format!("; leaf {}", doc.code(id_of(session, leaf))));
    }
    doc.buf.push_str("\n\n## Active path\n\n");
    if plan.steps.is_empty() {
        doc.buf.push_str("This session has no entries.\n\n");
    }
    // The nesting of branches, and the heading to write before the next entry when a branch
    // just ended (the thread it left goes on).
    let mut depth = 0usize;
    let mut resume: Option<(usize, Option<u32>)> = None;
    let mut point: Vec<Option<u32>> = Vec::new();
    let short = |doc: &Doc, idx| doc.code(cut_chars(id_of(session, idx), 8));
    for step in &plan.steps {
        match *step {
            Step::Open { first, .. } => {
                resume = None;
                depth += 1;
                let from = session.parent(first);
                point.push(from);
                let n = plan.sizes[first as usize];
                let entries = if n == 1 { "entry" } else { "entries" };
                doc.buf.push_str(&format!("{}Branch of {n} {entries}", heading(depth)));
                if let Some(p) = from {
                    doc.buf.push_str(&format!(" from {}", short(&doc, p)));
                }
                if depth + 2 > DEEPEST {
                    doc.buf.push_str(&format!(" (nested {depth} deep)"));
                }
                doc.buf.push_str("\n\n");
            }
            Step::Close => {
                depth -= 1;
                resume = Some((depth + 1, point.pop().flatten()));
            }
            Step::Entry(idx) => {
                if let Some((level, from)) = resume.take() {
                    let thread = if level == 1 { "Active path" } else { "Branch" };
                    doc.buf.push_str(&format!("{}{thread}, continued", heading(level)));
                    if let Some(from) = from {
                        doc.buf.push_str(&format!(" after {}", short(&doc, from)));
                    }
                    doc.buf.push_str("\n\n");
                }
                doc.entry(session, plan, idx, &view(session, plan, opts, idx));
            }
        }
        spill(&mut doc.buf, out, &session.path, BLOCK)?;
    }
    spill(&mut doc.buf, out, &session.path, 0)
}

/// The heading of a section `depth` branches deep (0: the active path), up to its text.
fn heading(depth: usize) -> String {
    format!("{} ", "#".repeat((depth + 2).min(DEEPEST)))
}

struct Doc<'a> {
    buf: String,
    opts: &'a Options,
}

impl Doc<'_> {
    /// Text on one line, as inline Markdown with nothing active in it.
    fn line(&self, s: &str) -> String {
        let mut esc = String::new();
        escape(&mut esc, &one_line(&self.opts.clean(s), usize::MAX));
        let mut out = String::with_capacity(esc.len());
        for c in esc.chars() {
            if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' | '!') {
                out.push('\\');
            }
            out.push(c);
        }
        out
    }

    /// Text as an inline code span.
    fn code(&self, s: &str) -> String {
        let s = pictures(&one_line(&self.opts.clean(s), usize::MAX));
        let ticks = "`".repeat(longest_run(&s, '`') + 1);
        let pad = if s.starts_with('`') || s.ends_with('`') || s.is_empty() { " " } else { "" };
        format!("{ticks}{pad}{s}{pad}{ticks}")
    }

    fn entry(&mut self, session: &Session, plan: &Plan, idx: u32, v: &View) {
        let (who, id) = (self.line(&v.who), self.code(id_of(session, idx)));
        self.buf.push_str(&format!("**{who}** · {id}"));
        if !v.time.is_empty() {
            self.buf.push_str(&format!(" · {}", self.line(&v.time)));
        }
        if let Some(label) = plan.labels.get(&idx) {
            self.buf.push_str(&format!(" · label {}", self.code(label)));
        }
        if self.opts.leaf == Some(idx) {
            self.buf.push_str(&format!(" · **{}**", active_mark(false)));
        }
        self.buf.push_str("\n\n");
        for part in &v.parts {
            self.part(part, v);
        }
    }

    fn part(&mut self, part: &Part, v: &View) {
        match part {
            Part::Text(t) if t.trim().is_empty() => {}
            Part::Text(t) => self.block(&self.opts.clean(t), ""),
            Part::Thinking(t) => {
                let t = self.opts.clean(t);
                self.folded(&format!("Thinking · {}", lines(&t)), |doc| doc.block(&t, ""));
            }
            Part::Call { name, gist, args } => {
                let args = self.opts.clean(args);
                self.folded(&format!("Tool call: {name} {gist}"), |doc| doc.fenced(&args, "json"));
            }
            Part::Output { title, error, text } => {
                let title = if *error { format!("⚠ {title}") } else { title.clone() };
                let text = self.opts.clean(text);
                self.folded(&title, |doc| doc.fenced(&text, ""));
            }
            Part::Image(img) => self.image(img),
            Part::Summary(t) if v.class == "compaction" => {
                let t = self.opts.clean(t);
                self.folded(&format!("Compaction summary · {}", lines(&t)), |doc| {
                    doc.block(&t, "> ");
                });
            }
            Part::Summary(t) => {
                if let Some(from) = &v.refers {
                    let from = self.code(cut_chars(from, 8));
                    self.buf
                        .push_str(&format!("> What was tried on the branch left at {from}:\n>\n"));
                }
                self.block(&self.opts.clean(t), "> ");
            }
            Part::Note(t) => {
                self.buf.push_str(&format!("*{}", self.line(t)));
                if v.class == "compaction"
                    && let Some(kept) = &v.refers
                {
                    self.buf.push_str(&format!(" Kept from {}.", self.code(cut_chars(kept, 8))));
                }
                self.buf.push_str("*\n\n");
            }
        }
    }

    /// A `<details>` block: `summary` over what `body` writes.
    fn folded(&mut self, summary: &str, body: impl FnOnce(&mut Self)) {
        self.buf.push_str("<details><summary>");
        escape(&mut self.buf, &one_line(&self.opts.clean(summary), 200));
        self.buf.push_str("</summary>\n\n");
        body(self);
        self.buf.push_str("</details>\n\n");
    }

    fn fenced(&mut self, text: &str, lang: &str) {
        let text = pictures(text);
        let fence = "`".repeat(longest_run(&text, '`').max(2) + 1);
        let newline = if text.ends_with('\n') { "" } else { "\n" };
        self.buf.push_str(&format!("{fence}{lang}\n{text}{newline}{fence}\n\n"));
    }

    fn block(&mut self, text: &str, prefix: &str) {
        for line in safe_markdown(text).lines() {
            self.buf.push_str(if line.is_empty() { prefix.trim_end() } else { prefix });
            self.buf.push_str(line);
            self.buf.push('\n');
        }
        self.buf.push('\n');
    }

    fn image(&mut self, img: &Image) {
        let mime = self.line(if img.mime.is_empty() { "no type" } else { &img.mime });
        let size = img.bytes.map(|b| format!(", {}", size(b))).unwrap_or_default();
        self.buf.push_str(&format!("*\\[image: {mime}{size}\\]*\n\n"));
    }
}

/// The longest run of `c` in `s`.
fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in s.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_outlast_the_text_s_backticks() {
        assert_eq!(longest_run("a ```` b", '`'), 4);
    }
}
