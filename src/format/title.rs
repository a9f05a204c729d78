//! The 256-byte title slot that current oh-my-pi writers put on the first physical line
//! (FORMAT §1.2). Renames patch those 256 bytes in place, so the encoding must come out at
//! exactly that size, byte for byte the way the agent's `serializeTitleSlot` writes it.

use crate::naming::TitleSource;

/// The size of a slot line, including its trailing `\n`.
pub const SLOT_BYTES: usize = 256;

/// The contents of a title slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TitleSlot {
    /// The session name; `""` means "no name" (it deletes `header.title` on load).
    pub title: String,
    /// Who set the name; `None` when the slot has no `source` key.
    pub source: Option<TitleSource>,
    /// The time of the last rename (or the header's timestamp when there was none).
    pub updated_at: String,
    /// Whether the line has its `pad`. oh-my-pi's session list reads a first line of type
    /// `title` without one as the slot, but its loader (18.2.3) refuses to resume the file.
    pub padded: bool,
}

/// The title slot cannot be written because its fixed fields alone exceed [`SLOT_BYTES`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the title slot needs {needed} bytes even with an empty title, more than its {SLOT_BYTES}")]
pub struct SlotOverflow {
    /// The size of the line with an empty title and no padding, newline included.
    pub needed: usize,
}

/// Reads the first physical line of a file as a title slot, as the agent decides it
/// (`parseTitleSlotLine`): it must be a JSON object with `type == "title"`, `v` the number 1,
/// string `title` and `updatedAt`, and `source` absent or `"auto"`/`"user"`. Anything else
/// gives `None`, and the line is then an ordinary record (normally the header). The agent's
/// loader also wants a string `pad`; a line without one (hand-made or older files) is still the
/// title slot, as the agent's session list reads it (CHANGES R7), with
/// [`TitleSlot::padded`] false. A `pad` that is not a string disqualifies the line.
///
/// `first_line` may include its `\n`. Invalid UTF-8 is decoded with U+FFFD as the agent's text
/// decoder does, and a leading BOM makes the line not a slot, as it does for the agent.
///
/// The line's length is not checked, just as the agent does not check it; a caller about to
/// patch the slot in place must also make sure the line is exactly [`SLOT_BYTES`] long.
pub(crate) fn parse_slot(first_line: &[u8]) -> Option<TitleSlot> {
    let text = String::from_utf8_lossy(first_line);
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    let record = value.as_object()?;
    if record.get("type")?.as_str()? != "title" {
        return None;
    }
    // `v === 1` in JavaScript: any JSON number equal to 1 (`1.0`, `1e0`) passes.
    if record.get("v")?.as_f64()? != 1.0 {
        return None;
    }
    let title = record.get("title")?.as_str()?;
    let updated_at = record.get("updatedAt")?.as_str()?;
    let padded = match record.get("pad") {
        None => false,
        Some(pad) => {
            pad.as_str()?;
            true
        }
    };
    let source = match record.get("source") {
        None => None,
        // `null` is not `undefined` to the agent, so it disqualifies the slot too.
        Some(value) => Some(TitleSource::parse(value.as_str()?)?),
    };
    Some(TitleSlot { title: title.to_owned(), source, updated_at: updated_at.to_owned(), padded })
}

/// Writes a title slot: exactly [`SLOT_BYTES`] bytes ending in `\n`, keys in the agent's order
/// `type, v, title, source (only if set), updatedAt, pad`, padded with spaces in `pad`.
/// Strings are escaped as `JSON.stringify` escapes them, which is how serde_json does.
///
/// A title too long to fit is cut by Unicode code points to the longest prefix whose line
/// fits; escapes count with their escaped length. Fails only when the line does not fit even
/// with an empty title, i.e. when `updated_at` is absurdly long.
pub fn encode_slot(
    title: &str,
    source: Option<TitleSource>,
    updated_at: &str,
) -> Result<Vec<u8>, SlotOverflow> {
    let json = |s: &str| serde_json::Value::from(s).to_string();
    let source = source.map_or(String::new(), |s| format!(r#","source":"{}""#, s.as_str()));
    let line = |title: &str, pad: usize| {
        let (title, at, pad) = (json(title), json(updated_at), " ".repeat(pad));
        format!(
            r#"{{"type":"title","v":1,"title":{title}{source},"updatedAt":{at},"pad":"{pad}"}}"#
        ) + "\n"
    };
    let fixed = line("", 0).len();
    if fixed > SLOT_BYTES {
        return Err(SlotOverflow { needed: fixed });
    }
    // Escaped length grows with every code point, so the longest fitting prefix is found in
    // one pass (the agent binary-searches, which gives the same prefix).
    let (budget, mut used) = (SLOT_BYTES - fixed, 0);
    let cut = title.char_indices().find(|&(_, c)| {
        used += json(c.encode_utf8(&mut [0; 4])).len() - 2;
        used > budget
    });
    let title = &title[..cut.map_or(title.len(), |(i, _)| i)];
    let line = line(title, SLOT_BYTES - line(title, 0).len()).into_bytes();
    debug_assert_eq!(line.len(), SLOT_BYTES);
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: &str = "2026-02-16T10:20:30.000Z";

    fn pad_of(line: &[u8]) -> usize {
        let v: serde_json::Value = serde_json::from_slice(line).unwrap();
        let pad = v["pad"].as_str().unwrap();
        assert!(pad.bytes().all(|b| b == b' '));
        pad.len()
    }

    #[test]
    fn reference_examples() {
        let empty = encode_slot("", None, AT).unwrap();
        assert_eq!(empty.len(), SLOT_BYTES);
        assert_eq!(pad_of(&empty), 174);
        let want = format!(
            r#"{{"type":"title","v":1,"title":"","updatedAt":"{AT}","pad":"{}"}}"#,
            " ".repeat(174)
        ) + "\n";
        assert_eq!(String::from_utf8(empty).unwrap(), want);

        let named = encode_slot("Fix session naming", Some(TitleSource::User), AT).unwrap();
        assert_eq!(named.len(), SLOT_BYTES);
        assert_eq!(pad_of(&named), 140);
        let want = format!(
            r#"{{"type":"title","v":1,"title":"Fix session naming","source":"user","updatedAt":"{AT}","pad":"{}"}}"#,
            " ".repeat(140)
        ) + "\n";
        assert_eq!(String::from_utf8(named).unwrap(), want);
    }

    #[test]
    fn round_trips() {
        for (title, source) in [
            ("", None),
            ("Fix session naming", Some(TitleSource::User)),
            ("auto one", Some(TitleSource::Auto)),
            ("quote \" back \\ tab \t nl \n bell \u{7} del \u{7F}", None),
            ("naïve café — 東京 🚀", Some(TitleSource::User)),
        ] {
            let line = encode_slot(title, source, AT).unwrap();
            assert_eq!(line.len(), SLOT_BYTES, "{title:?}");
            assert_eq!(line.last(), Some(&b'\n'));
            let slot = parse_slot(&line).unwrap();
            assert_eq!(
                slot,
                TitleSlot { title: title.into(), source, updated_at: AT.into(), padded: true },
                "{title:?}"
            );
            // Without the newline too.
            assert_eq!(parse_slot(&line[..SLOT_BYTES - 1]), Some(slot));
        }
    }

    #[test]
    fn long_titles_are_cut_to_the_longest_fitting_prefix() {
        // With no source, 174 bytes are free for the title.
        let ascii = "x".repeat(300);
        let slot = parse_slot(&encode_slot(&ascii, None, AT).unwrap()).unwrap();
        assert_eq!(slot.title, "x".repeat(174));

        // 3-byte characters: 58 fit exactly, leaving no pad.
        let cjk = "東".repeat(100);
        let line = encode_slot(&cjk, None, AT).unwrap();
        assert_eq!(pad_of(&line), 0);
        assert_eq!(parse_slot(&line).unwrap().title.chars().count(), 58);

        // 4-byte characters: 43 fit (172 bytes), 2 bytes of pad; never half a character.
        let rockets = "🚀".repeat(100);
        let line = encode_slot(&rockets, None, AT).unwrap();
        assert_eq!(pad_of(&line), 2);
        assert_eq!(parse_slot(&line).unwrap().title, "🚀".repeat(43));
    }

    #[test]
    fn escapes_count_with_their_escaped_length() {
        // Each control character costs 6 bytes: 29 fit in 174 (pad 0).
        let controls = "\u{1}".repeat(40);
        let line = encode_slot(&controls, None, AT).unwrap();
        assert_eq!(pad_of(&line), 0);
        assert_eq!(parse_slot(&line).unwrap().title, "\u{1}".repeat(29));

        // Each quote costs 2: 87 fit.
        let quotes = "\"".repeat(100);
        let slot = parse_slot(&encode_slot(&quotes, None, AT).unwrap()).unwrap();
        assert_eq!(slot.title, "\"".repeat(87));

        // A 6-byte escape that would overshoot by one is dropped whole: 173 + 6 > 174.
        let title = format!("{}\u{1}", "a".repeat(173));
        let line = encode_slot(&title, None, AT).unwrap();
        assert_eq!(pad_of(&line), 1);
        assert_eq!(parse_slot(&line).unwrap().title, "a".repeat(173));
    }

    /// `JSON.stringify`'s escapes: `"` and `\\`, the short forms `\b \t \n \f \r`, `\u00xx`
    /// (lowercase hex) for the other C0 controls, and nothing else.
    #[test]
    fn escaping_matches_json_stringify() {
        let title = "\"\\\u{8}\t\n\u{C}\r\u{0}\u{1F}\u{7F}\u{2028}\u{FEFF}é🚀";
        let line = String::from_utf8(encode_slot(title, None, AT).unwrap()).unwrap();
        let want = "\"\\\"\\\\\\b\\t\\n\\f\\r\\u0000\\u001f\u{7F}\u{2028}\u{FEFF}é🚀\"";
        assert!(line.contains(&format!(r#""title":{want},"#)), "{line}");
        assert_eq!(parse_slot(line.as_bytes()).unwrap().title, title);
        // Each character costs its escaped length: as many fit as that allows of 174 bytes.
        for c in (0u32..0x250).chain([0x2028, 0x2029, 0xFEFF, 0x1F680]).filter_map(char::from_u32) {
            let line = encode_slot(&c.to_string().repeat(200), None, AT).unwrap();
            let escaped = serde_json::to_string(&c).unwrap().len() - 2;
            let title = parse_slot(&line).unwrap().title;
            assert_eq!(title.chars().count(), (174 / escaped).min(200), "{c:?}");
            assert_eq!(pad_of(&line), 174 - escaped * title.chars().count(), "{c:?}");
        }
    }

    #[test]
    fn too_long_updated_at_is_an_error() {
        let at = "9".repeat(300);
        assert!(encode_slot("", None, &at).unwrap_err().needed > SLOT_BYTES);
        // Fits exactly with an empty title: 174 spare bytes go to updatedAt.
        let at = "9".repeat(AT.len() + 174);
        let line = encode_slot("anything", None, &at).unwrap();
        assert_eq!(pad_of(&line), 0);
        assert_eq!(parse_slot(&line).unwrap().title, "");
        let at = "9".repeat(AT.len() + 175);
        assert_eq!(encode_slot("", None, &at), Err(SlotOverflow { needed: SLOT_BYTES + 1 }));
        // Escapes in updatedAt count too.
        let at = "\n".repeat(100);
        assert!(encode_slot("", Some(TitleSource::User), &at).is_err());
    }

    #[test]
    fn validity_rules() {
        let ok = r#"{"type":"title","v":1,"title":"t","updatedAt":"u","pad":""}"#;
        assert!(parse_slot(ok.as_bytes()).is_some_and(|s| s.padded));
        let unpadded = r#"{"type":"title","v":1,"title":"t","updatedAt":"u"}"#;
        assert!(parse_slot(unpadded.as_bytes()).is_some_and(|s| !s.padded));
        let variants = [
            (r#"{"type":"title","v":1.0,"title":"t","updatedAt":"u","pad":"  "}"#, true),
            (r#"{"type":"title","v":1e0,"title":"t","updatedAt":"u","pad":""}"#, true),
            (r#"{"type":"title","v":"1","title":"t","updatedAt":"u","pad":""}"#, false),
            (r#"{"type":"title","v":2,"title":"t","updatedAt":"u","pad":""}"#, false),
            (r#"{"type":"title","title":"t","updatedAt":"u","pad":""}"#, false),
            (r#"{"type":"Title","v":1,"title":"t","updatedAt":"u","pad":""}"#, false),
            (r#"{"type":"title","v":1,"title":null,"updatedAt":"u","pad":""}"#, false),
            (r#"{"type":"title","v":1,"title":"t","updatedAt":5,"pad":""}"#, false),
            // Without `pad`: still the slot, as oh-my-pi's session list reads it (R7).
            (r#"{"type":"title","v":1,"title":"t","updatedAt":"u"}"#, true),
            (r#"{"type":"title","v":1,"title":"t","updatedAt":"u","pad":0}"#, false),
            (
                r#"{"type":"title","v":1,"title":"t","source":"auto","updatedAt":"u","pad":""}"#,
                true,
            ),
            (
                r#"{"type":"title","v":1,"title":"t","source":"bot","updatedAt":"u","pad":""}"#,
                false,
            ),
            (r#"{"type":"title","v":1,"title":"t","source":null,"updatedAt":"u","pad":""}"#, false),
            // Unknown keys and any order are fine; the last duplicate wins, as in JSON.parse.
            (r#"{"pad":"","x":[1],"updatedAt":"u","title":"t","v":1,"type":"title"}"#, true),
            (
                r#"{"type":"session","type":"title","v":1,"title":"t","updatedAt":"u","pad":""}"#,
                true,
            ),
            (r#"{"type":"session","version":3,"id":"x","timestamp":"u","cwd":"/"}"#, false),
            (r#"["title"]"#, false),
            (r#"{"type":"title","v":1,"title":"t","updatedAt":"u","pad":"""#, false),
            ("", false),
        ];
        for (line, want) in variants {
            assert_eq!(parse_slot(line.as_bytes()).is_some(), want, "{line}");
        }
        let with_bom = format!("\u{FEFF}{ok}");
        assert_eq!(parse_slot(with_bom.as_bytes()), None);
        // A CRLF line still parses (JSON allows the trailing white space).
        assert!(parse_slot(format!("{ok}\r\n").as_bytes()).is_some());
    }

    #[test]
    fn invalid_utf8_is_replaced_not_rejected() {
        let mut line = br#"{"type":"title","v":1,"title":"a"#.to_vec();
        line.push(0xFF);
        line.extend_from_slice(br#"b","updatedAt":"u","pad":""}"#);
        assert_eq!(parse_slot(&line).unwrap().title, "a\u{FFFD}b");
    }
}
