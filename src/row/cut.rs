//! How much of a text a row shows: the limits, a cut that never splits a character, and the
//! folding of a text onto one line. The entry's view ([`super::entry`]) cuts what it reads
//! with these, and the row functions ([`super::text`]) fold what they show.

use serde_json::Value;

/// How much message text a row or a search sees, in characters (FORMAT §9.3, §9.4).
pub(crate) const TEXT_LIMIT: usize = 200;
/// How much of a `bash` tool call's command a tool-result row shows, in characters.
const BASH_LIMIT: usize = 50;
/// How much of another tool call's JSON arguments a tool-result row shows, in characters.
pub(crate) const ARGS_LIMIT: usize = 40;

/// What the row of an unknown tool's result shows of the call's arguments: the first
/// [`ARGS_LIMIT`] characters of their JSON text ([`shown_cut`]). The text is written no further
/// than that (the arguments of a `write`-like tool can be megabytes).
pub(crate) fn json_prefix_text(args: &Value) -> String {
    /// A buffer that takes the bytes of as many characters at most, then fails the write.
    struct Prefix(Vec<u8>);
    impl std::io::Write for Prefix {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let room = (4 * ARGS_LIMIT + 8).saturating_sub(self.0.len());
            if room == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            self.0.extend_from_slice(&bytes[..room.min(bytes.len())]);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut prefix = Prefix(Vec::new());
    // A write past the room ends the text, which is all the row reads. Keys come in the
    // call's order, as the agent writes them (serde_json's `preserve_order`).
    let _ = serde_json::to_writer(&mut prefix, args);
    shown_cut(&String::from_utf8_lossy(&prefix.0), ARGS_LIMIT)
}

/// What the row of a `bash` call's result shows of its command: the command folded onto one
/// line, its first [`BASH_LIMIT`] characters ([`shown_cut`]).
pub(crate) fn command_row(command: &str) -> String {
    shown_cut(&one_row(command), BASH_LIMIT)
}

/// The first `n` characters of `text`, and `...` when that cut it.
fn shown_cut(text: &str, n: usize) -> String {
    let (head, cut) = truncated(text, n);
    [head, if cut { "..." } else { "" }].concat()
}

/// `s` with line breaks (LF and CR) and tabs turned into spaces, trimmed.
pub fn one_row(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_one_row(&mut out, s);
    out
}

/// [`one_row`] onto the end of `out`.
pub(crate) fn push_one_row(out: &mut String, s: &str) {
    // A copy by runs, not char by char: the three are one byte each, so the runs between them
    // stay whole characters.
    let mut rest = s.trim();
    while let Some(at) = memchr::memchr3(b'\n', b'\r', b'\t', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        out.push(' ');
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// The first `n` characters of `s` (characters, not bytes: a cut never splits one).
pub fn cut_chars(s: &str, n: usize) -> &str {
    // No character takes less than a byte, and `n` ASCII bytes are `n` characters that end at
    // a character boundary: most text is cut without counting.
    if s.len() <= n {
        return s;
    }
    match s.as_bytes().get(..n) {
        Some(head) if head.is_ascii() => s.get(..n).unwrap_or(s),
        _ => s.char_indices().nth(n).map_or(s, |(at, _)| &s[..at]),
    }
}

/// The first `n` characters of `s`, and whether anything was cut off.
pub(crate) fn truncated(s: &str, n: usize) -> (&str, bool) {
    let head = cut_chars(s, n);
    (head, head.len() < s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_chars_counts_characters_on_every_path() {
        // Short, ASCII and mixed strings, cut before, at and after a wide character.
        let cases = [("", 3), ("ab", 3), ("abc", 3), ("abcd", 3), ("aé", 1), ("aébc", 2)];
        let more = [("éééé", 2), ("abcé", 3), ("abcéd", 4), ("ab\u{1F600}c", 3), ("abc", 0)];
        // At 8, as short ids are cut: wherever the first character that is not ASCII is.
        let ids =
            ["0123456789", "01234567", "ab", "", "éééééééééé", "abcdefgéhij", "abcdefghé", "éabc"];
        let ids = ids.into_iter().map(|id| (id, 8));
        for (s, n) in cases.into_iter().chain(more).chain(ids) {
            let counted: String = s.chars().take(n).collect();
            assert_eq!(cut_chars(s, n), counted, "{s:?} cut at {n}");
        }
    }
}
