//! Transcript Markdown made safe to place inside a document of our own (`export --format
//! markdown`, `context --format markdown`): it stays Markdown, but nothing of it can read as a
//! heading of the document, open raw HTML, or leave a code fence open.

/// Control characters (but tab and line feed) as their visible pictures; carriage returns
/// dropped.
pub fn pictures(s: &str) -> String {
    s.chars().filter(|&c| c != '\r').map(|c| picture(c).unwrap_or(c)).collect()
}

/// The visible picture (U+2400…) of a control character but tab and line feed, U+FFFD for a
/// C1 control; `None` for any other character.
pub fn picture(c: char) -> Option<char> {
    match c as u32 {
        0x09 | 0x0a => None,
        n @ 0..=0x1f => char::from_u32(0x2400 + n),
        0x7f => Some('\u{2421}'),
        0x80..=0x9f => Some('\u{fffd}'),
        _ => None,
    }
}

/// A fence line: its character, its length, and what follows it.
fn fence_of(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|&c| c == '`' || c == '~')?;
    let n = rest.len() - rest.trim_start_matches(c).len();
    // A backtick fence's info string holds no backtick (CommonMark): such a line is text.
    let opens = c != '`' || !rest[n..].contains('`');
    (n >= 3 && opens).then_some((c, n))
}

/// Transcript Markdown made safe to place inside the document: outside code fences, a line
/// that would start a heading (ATX `#`, or a setext underline) or raw HTML is escaped, and a
/// fence left open is closed. Inside fences and code spans nothing changes.
pub fn safe_markdown(text: &str) -> String {
    let text = pictures(text);
    let mut out = String::with_capacity(text.len() + 16);
    let mut fence: Option<(char, usize)> = None;
    let mut prev_blank = true;
    for line in text.split('\n') {
        if let Some((c, n)) = fence {
            out.push_str(line);
            if fence_of(line).is_some_and(|(c2, n2)| c2 == c && n2 >= n)
                && line.trim_start().trim_start_matches(c).trim().is_empty()
            {
                fence = None;
            }
        } else if let Some(f) = fence_of(line) {
            out.push_str(line);
            (fence, prev_blank) = (Some(f), false);
        } else {
            let trimmed = line.trim_start_matches(' ');
            let indent = line.len() - trimmed.len();
            // A heading: `#` at up to three spaces of indent. A setext underline (`===`, `---`)
            // under a line of text would make that line a heading.
            let heading = indent <= 3 && trimmed.starts_with('#');
            let underline = indent <= 3
                && !prev_blank
                && !trimmed.is_empty()
                && (trimmed.trim_end().chars().all(|c| c == '=')
                    || trimmed.trim_end().chars().all(|c| c == '-'));
            if heading || underline {
                out.push_str(&line[..indent]);
                out.push('\\');
                escape_html_inline(&mut out, trimmed);
            } else {
                escape_html_inline(&mut out, line);
            }
            prev_blank = trimmed.trim().is_empty();
        }
        out.push('\n');
    }
    if let Some((c, n)) = fence {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.extend(std::iter::repeat_n(c, n));
        out.push('\n');
    }
    out.truncate(out.trim_end_matches('\n').len());
    out
}

/// A line with `<` escaped outside its code spans (so no HTML of a transcript is raw HTML of
/// the document), and code spans kept as they are.
fn escape_html_inline(out: &mut String, line: &str) {
    let b = line.as_bytes();
    let mut i = 0;
    let mut plain = 0;
    while i < b.len() {
        match b[i] {
            // An escaped character is itself: `\`` opens no code span.
            b'\\' => i = (i + 2).min(b.len()),
            b'`' => {
                let n = b[i..].iter().take_while(|&&c| c == b'`').count();
                // The closing run of the same length, if the line holds one.
                let close = (i + n..b.len()).find(|&j| {
                    b[j] == b'`'
                        && b[j..].iter().take_while(|&&c| c == b'`').count() == n
                        && (j == 0 || b[j - 1] != b'`')
                });
                i = close.unwrap_or(i) + n;
            }
            b'<' => {
                out.push_str(&line[plain..i]);
                out.push_str("&lt;");
                i += 1;
                plain = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&line[plain..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_headings_never_read_as_sections() {
        let s = "## Goal\nAdd a flag.\n  # also\nTitle\n=====\n\n---\n```\n## in code\n```";
        assert_eq!(
            safe_markdown(s),
            "\\## Goal\nAdd a flag.\n  \\# also\nTitle\n\\=====\n\n---\n```\n## in code\n```"
        );
    }

    #[test]
    fn html_is_escaped_outside_code_and_fences_are_closed() {
        assert_eq!(
            safe_markdown("</details><script>x</script> `<b>` ``a`<i>`` <"),
            "&lt;/details>&lt;script>x&lt;/script> `<b>` ``a`<i>`` &lt;"
        );
        assert_eq!(safe_markdown("~~~~\n</details>\n~~~"), "~~~~\n</details>\n~~~\n~~~~");
        assert_eq!(pictures("a\u{1b}b\r\n"), "a\u{241b}b\n");
    }

    /// What CommonMark does not read as code is not left unescaped: a backtick fence whose
    /// info string holds a backtick, and an escaped backtick.
    #[test]
    fn lines_that_only_look_like_code_are_escaped() {
        assert_eq!(safe_markdown("```x`y\n<img onerror=a>"), "```x`y\n&lt;img onerror=a>");
        assert_eq!(safe_markdown("\\`<img onerror=a>`"), "\\`&lt;img onerror=a>`");
    }
}
