//! Text for a terminal: transcript text escaped so that it cannot drive the terminal, and the
//! byte checks that find what needs escaping (in a terminal or in a JSON string) without
//! looking at each character.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Escapes every control character so that transcript text cannot drive the terminal.
///
/// C0 controls (U+0000–U+001F, newline and tab included), DEL (U+007F) and C1 controls
/// (U+0080–U+009F) become a visible `\xNN` with the code point in two lowercase hex digits:
/// ESC is written `\x1b`, BEL `\x07`, the one-character CSI `\x9b`. Escaping the introducer
/// leaves the rest of a CSI or OSC sequence (an OSC 8 hyperlink, say) as plain printable text,
/// so no sequence survives. All other characters, non-ASCII ones included, pass unchanged;
/// text without controls is borrowed, not copied.
///
/// Backslashes are not doubled: this is for reading, not for parsing back.
pub fn sanitize_for_terminal(s: &str) -> Cow<'_, str> {
    escape_controls(s, false)
}

/// Like [`sanitize_for_terminal`], but keeps the layout of multi-line text: newlines and tabs
/// pass, and a CR right before a newline (a CRLF line end) is dropped. A lone CR, which would
/// move the cursor back over the line, is still escaped.
pub fn sanitize_keep_lines(s: &str) -> Cow<'_, str> {
    escape_controls(s, true)
}

/// Whether `bytes` holds a byte below 0x20, 0x7f (DEL) or 0xc2 (C1): every control character
/// starts with one. When it does not, [`sanitize_for_terminal`] and [`sanitize_keep_lines`]
/// give text made of these bytes back as it is, so a caller that writes several pieces may
/// check them all at once, after writing them.
pub fn may_hold_controls(bytes: &[u8]) -> bool {
    has_control_or(bytes, 0x7f, 0xc2)
}

/// Whether `bytes` holds a byte below 0x20 or one equal to `a` or `b`. Text without them,
/// nearly all text, is checked 16 bytes at a time (SSE2, on x86-64), the last 16 as one block
/// overlapping the ones before; a shorter text eight bytes at a time. A row's text is checked
/// for every row printed.
pub(crate) fn has_control_or(bytes: &[u8], a: u8, b: u8) -> bool {
    #[cfg(target_arch = "x86_64")]
    let bytes = {
        use safe_arch::{
            bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, min_u8_m128i,
            move_mask_i8_m128i, set_splat_i8_m128i,
        };
        let below_space = set_splat_i8_m128i(0x1f);
        let (a, b) = (set_splat_i8_m128i(a as i8), set_splat_i8_m128i(b as i8));
        let hit = |block: &[u8]| {
            let Ok(block) = <&[u8; 16]>::try_from(block) else { return false };
            let v = load_unaligned_m128i(block);
            // Unsigned `x < 0x20` is `min(x, 0x1f) == x`.
            let hits = bitor_m128i(
                cmp_eq_mask_i8_m128i(min_u8_m128i(v, below_space), v),
                bitor_m128i(cmp_eq_mask_i8_m128i(v, a), cmp_eq_mask_i8_m128i(v, b)),
            );
            move_mask_i8_m128i(hits) != 0
        };
        if bytes.len() >= 16 {
            // The last 16 bytes, overlapping the blocks before them, instead of a loop over
            // the few left, whose end mispredicted on rows of every length.
            let last = &bytes[bytes.len() - 16..];
            return bytes.chunks_exact(16).any(hit) || hit(last);
        }
        bytes
    };
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Whether a byte of `x` is below `n` (at most 0x80): a byte below borrows into its high
    // bit, and no borrow starts without one.
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH != 0;
    let (wa, wb) = (ONES * u64::from(a), ONES * u64::from(b));
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        if below(x, 0x20) || below(x ^ wa, 1) || below(x ^ wb, 1) {
            return true;
        }
    }
    words.remainder().iter().any(|&c| c < 0x20 || c == a || c == b)
}

/// The first `limit` characters of `s`, and `…` when more followed: a text quoted in a message.
pub fn ellipsize(s: &str, limit: usize) -> String {
    match s.char_indices().nth(limit) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

fn escape_controls(s: &str, keep_lines: bool) -> Cow<'_, str> {
    let needs_escape = |c: char| c.is_control() && !(keep_lines && matches!(c, '\n' | '\t'));
    if !may_hold_controls(s.as_bytes()) {
        return Cow::Borrowed(s);
    }
    let Some(first) = s.find(needs_escape) else { return Cow::Borrowed(s) };
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str(&s[..first]);
    let mut chars = s[first..].chars().peekable();
    while let Some(c) = chars.next() {
        if keep_lines && c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if needs_escape(c) {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_a_json_string_escapes_are_found_at_every_place() {
        // In texts of every length up to three blocks, so that a byte is found in a whole
        // block, in the last block that overlaps it, or among the few of a short text.
        for c in 0..=255u8 {
            let expected = c < 0x20 || c == b'"' || c == b'\\';
            for len in 1..50 {
                assert!(!has_control_or(&vec![b'a'; len], b'"', b'\\'), "{len}");
                for at in 0..len {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = c;
                    let found = has_control_or(&bytes, b'"', b'\\');
                    assert_eq!(found, expected, "byte {c:#x} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn control_bytes_are_found_at_every_place() {
        for b in 0..=255u8 {
            let expected = b < 0x20 || b == 0x7f || b == 0xc2;
            for at in 0..43 {
                let mut bytes = vec![b'a'; 43];
                bytes[at] = b;
                assert_eq!(may_hold_controls(&bytes), expected, "byte {b:#x} at {at}");
                // Neighbours above every bound (0x80) or just above one (0x21) change nothing.
                bytes[(at + 1) % 43] = 0x80;
                bytes[(at + 2) % 43] = 0x21;
                assert_eq!(may_hold_controls(&bytes), expected, "byte {b:#x} at {at}");
            }
        }
        assert!(!may_hold_controls(b""));
    }

    #[test]
    fn sanitizing_leaves_ordinary_text_borrowed() {
        let text = "plain ASCII, Ünïcödé, 漢字, emoji 🦀, combining e\u{301}, NBSP\u{a0}";
        assert!(matches!(sanitize_for_terminal(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn sanitizing_escapes_sequences() {
        let cases = [
            ("\x1b[31mred\x1b[0m", r"\x1b[31mred\x1b[0m"), // CSI
            (
                "\x1b]8;;https://e.x\x1b\\link\x1b]8;;\x1b\\",
                r"\x1b]8;;https://e.x\x1b\link\x1b]8;;\x1b\",
            ), // OSC 8, ST
            ("\x1b]8;;https://e.x\x07link\x1b]8;;\x07", r"\x1b]8;;https://e.x\x07link\x1b]8;;\x07"), // OSC 8, BEL
            ("ding\x07", r"ding\x07"),                   // BEL
            ("\u{9b}2J cleared", r"\x9b2J cleared"),     // C1 CSI
            ("\u{9d}0;title\u{9c}", r"\x9d0;title\x9c"), // C1 OSC, ST
            ("progress 10%\rprogress 99%", r"progress 10%\x0dprogress 99%"), // CR
            ("a\nb\tc\0d\x7f", r"a\x0ab\x09c\x00d\x7f"), // LF, TAB, NUL, DEL
            ("ü\x1bü", r"ü\x1bü"),
        ];
        for (raw, want) in cases {
            assert_eq!(sanitize_for_terminal(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn sanitizing_can_keep_lines() {
        assert_eq!(sanitize_keep_lines("a\r\nb\tc\n"), "a\nb\tc\n");
        assert_eq!(sanitize_keep_lines("10%\r99%\x1b[K"), r"10%\x0d99%\x1b[K");
        assert_eq!(sanitize_keep_lines("\r\r\n"), "\\x0d\n");
        assert!(matches!(sanitize_keep_lines("a\nb"), Cow::Borrowed(_)));
    }

    proptest::proptest! {
        #[test]
        fn sanitized_text_has_no_controls(s in "\\PC*|[\\x00-\\x1f\\x7f-\\u{9f}a-zé\\n\\r]*") {
            let out = sanitize_for_terminal(&s);
            proptest::prop_assert!(!out.chars().any(char::is_control));
            let lines = sanitize_keep_lines(&s);
            proptest::prop_assert!(!lines.chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
        }

        #[test]
        fn the_byte_check_reads_as_a_byte_loop(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![20 => b'a'..=b'z', 1 => proptest::num::u8::ANY],
                0..100,
            ),
            a in proptest::num::u8::ANY,
            b in proptest::num::u8::ANY,
        ) {
            let expected = bytes.iter().any(|&c| c < 0x20 || c == a || c == b);
            proptest::prop_assert_eq!(has_control_or(&bytes, a, b), expected);
        }
    }
}
