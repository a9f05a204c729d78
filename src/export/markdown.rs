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
use super::{BLOCK, Image, Options, Part, Plan, Step, View, id_of, one_line, size, spill, view};
use crate::markdown::{pictures, safe_markdown};
use crate::row::text::cut_chars;
use crate::session::Session;

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
    doc.buf.push_str("# ");
    doc.line(&opts.title);
    doc.buf.push_str("\n\n");
    let header = session.header.as_ref();
    let field =
        |k: &str| header.and_then(|h| h.value.get(k)).and_then(|v| v.as_str()).map(str::to_owned);
    if let Some(h) = header {
        doc.buf.push_str("- Session: ");
        doc.code(&h.id);
        doc.buf.push('\n');
    }
    if let Some(cwd) = field("cwd") {
        doc.buf.push_str("- Directory: ");
        doc.code(&cwd);
        doc.buf.push('\n');
    }
    if let Some(ts) = field("timestamp") {
        doc.buf.push_str("- Started: ");
        doc.line(&super::short_time(Some(&ts)));
        doc.buf.push('\n');
    }
    doc.buf.push_str(&format!(
        "- {} entries, {} branch{} off the active path",
        plan.layout.rows.len(),
        plan.parents.len(),
        if plan.parents.len() == 1 { "" } else { "es" }
    ));
    if let Some(leaf) = opts.leaf {
        doc.buf.push_str("; leaf ");
        doc.code(id_of(session, leaf));
    }
    doc.buf.push_str("\n\n## Active path\n\n");
    if plan.steps.is_empty() {
        doc.buf.push_str("This session has no entries.\n\n");
    }
    // The nesting of branches, and the heading to write before the next entry when a branch
    // just ended (the thread it left goes on).
    let mut depth = 0usize;
    let mut resume: Option<(usize, u32)> = None;
    let mut point: Vec<u32> = Vec::new();
    for step in &plan.steps {
        match *step {
            Step::Open { first, .. } => {
                resume = None;
                depth += 1;
                let from = session.parent(first);
                point.push(from.unwrap_or(u32::MAX));
                doc.heading(depth);
                let n = plan.sizes[first as usize];
                doc.buf
                    .push_str(&format!("Branch of {n} entr{}", if n == 1 { "y" } else { "ies" }));
                if let Some(p) = from {
                    doc.buf.push_str(" from ");
                    doc.code(cut_chars(id_of(session, p), 8));
                }
                if depth + 2 > DEEPEST {
                    doc.buf.push_str(&format!(" (nested {depth} deep)"));
                }
                doc.buf.push_str("\n\n");
            }
            Step::Close => {
                depth -= 1;
                let from = point.pop().unwrap_or(u32::MAX);
                resume = Some((depth + 1, from));
            }
            Step::Entry(idx) => {
                if let Some((level, from)) = resume.take() {
                    doc.heading(level);
                    doc.buf.push_str(if level == 1 { "Active path" } else { "Branch" });
                    doc.buf.push_str(", continued");
                    if from != u32::MAX {
                        doc.buf.push_str(" after ");
                        doc.code(cut_chars(id_of(session, from), 8));
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

struct Doc<'a> {
    buf: String,
    opts: &'a Options,
}

impl Doc<'_> {
    /// A heading of the document for a section `depth` branches deep (0: the active path).
    fn heading(&mut self, depth: usize) {
        self.buf.push_str(&"#".repeat((depth + 2).min(DEEPEST)));
        self.buf.push(' ');
    }

    /// Text on one line, as inline Markdown with nothing active in it.
    fn line(&mut self, s: &str) {
        let s = self.opts.clean(s);
        let s = one_line(&s, usize::MAX);
        let mut esc = String::new();
        escape(&mut esc, &s);
        for c in esc.chars() {
            if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' | '!') {
                self.buf.push('\\');
            }
            self.buf.push(c);
        }
    }

    /// Text as an inline code span.
    fn code(&mut self, s: &str) {
        let s = self.opts.clean(s);
        let s = pictures(&one_line(&s, usize::MAX));
        let ticks = "`".repeat(longest_run(&s, '`') + 1);
        let pad = if s.starts_with('`') || s.ends_with('`') || s.is_empty() { " " } else { "" };
        self.buf.push_str(&format!("{ticks}{pad}{s}{pad}{ticks}"));
    }

    fn entry(&mut self, _session: &Session, plan: &Plan, idx: u32, v: &View) {
        let id = id_of(_session, idx).to_owned();
        self.buf.push_str("**");
        self.line(&v.who);
        self.buf.push_str("** · ");
        self.code(&id);
        if !v.time.is_empty() {
            self.buf.push_str(" · ");
            self.line(&v.time);
        }
        if let Some(label) = plan.labels.get(&idx) {
            self.buf.push_str(" · label ");
            self.code(label);
        }
        if self.opts.leaf == Some(idx) {
            self.buf.push_str(" · **← active**");
        }
        self.buf.push_str("\n\n");
        for part in &v.parts {
            self.part(part, v);
        }
    }

    fn part(&mut self, part: &Part, v: &View) {
        match part {
            Part::Text(t) if t.trim().is_empty() => {}
            Part::Text(t) => {
                let t = self.opts.clean(t);
                self.block(&t, "");
            }
            Part::Thinking(t) => {
                let t = self.opts.clean(t);
                self.details(&format!("Thinking · {}", super::lines(&t)));
                self.block(&t, "");
                self.buf.push_str("</details>\n\n");
            }
            Part::Call { name, gist, args } => {
                self.details(&format!("Tool call: {name} {gist}"));
                let args = self.opts.clean(args);
                self.fenced(&args, "json");
                self.buf.push_str("</details>\n\n");
            }
            Part::Output { title, error, text } => {
                let title = if *error { format!("⚠ {title}") } else { title.clone() };
                self.details(&title);
                let text = self.opts.clean(text);
                self.fenced(&text, "");
                self.buf.push_str("</details>\n\n");
            }
            Part::Image(img) => self.image(img),
            Part::Summary(t) if v.class == "compaction" => {
                let t = self.opts.clean(t);
                self.details(&format!("Compaction summary · {}", super::lines(&t)));
                self.block(&t, "> ");
                self.buf.push_str("</details>\n\n");
            }
            Part::Summary(t) => {
                let t = self.opts.clean(t);
                if let Some(from) = &v.refers {
                    self.buf.push_str("> What was tried on the branch left at ");
                    self.code(cut_chars(from, 8));
                    self.buf.push_str(":\n>\n");
                }
                self.block(&t, "> ");
            }
            Part::Note(t) => {
                self.buf.push('*');
                self.line(t);
                if v.class == "compaction"
                    && let Some(kept) = &v.refers
                {
                    self.buf.push_str(" Kept from ");
                    self.code(cut_chars(kept, 8));
                    self.buf.push('.');
                }
                self.buf.push_str("*\n\n");
            }
        }
    }

    fn details(&mut self, summary: &str) {
        let summary = self.opts.clean(summary);
        self.buf.push_str("<details><summary>");
        escape(&mut self.buf, &one_line(&summary, 200));
        self.buf.push_str("</summary>\n\n");
    }

    fn fenced(&mut self, text: &str, lang: &str) {
        let text = pictures(text);
        let fence = "`".repeat(longest_run(&text, '`').max(2) + 1);
        self.buf.push_str(&format!("{fence}{lang}\n{text}"));
        if !text.ends_with('\n') {
            self.buf.push('\n');
        }
        self.buf.push_str(&fence);
        self.buf.push_str("\n\n");
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
        let mime = if img.mime.is_empty() { "no type" } else { &img.mime };
        self.buf.push_str("*\\[image: ");
        self.line(mime);
        if let Some(b) = img.bytes {
            self.buf.push_str(", ");
            self.buf.push_str(&size(b));
        }
        self.buf.push_str("\\]*\n\n");
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
