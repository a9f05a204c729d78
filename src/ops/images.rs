//! `prune --images`: moves the inline base64 images of an oh-my-pi session into oh-my-pi's
//! blob store, as oh-my-pi 18.2.3 itself persists them (`session/session-persistence.ts`,
//! `session/blob-store.ts`):
//!
//! * an image is an object with a string `data` in a `content` array whose `type` is `image`,
//!   or in an `images` array (a `type` of `image` or a `mimeType` starting `image/`), whose
//!   `data` is not already a `blob:` reference and has at least 1024 characters (smaller ones
//!   stay inline, as oh-my-pi leaves them);
//! * the blob is the decoded bytes, stored as `<blobs>/<sha256 of the bytes>`, with a link
//!   `<hash>.<ext>` for the image type (png, jpg, gif, webp, svg, else the MIME subtype);
//! * `data` becomes `blob:sha256:<hash>`, which oh-my-pi reads back as the bytes in base64.
//!
//! Only data that base64-encodes back to itself is moved (oh-my-pi reads a blob back as
//! canonical padded base64), so the agent reads exactly the string it had; every other byte of
//! the line stays as it was.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::Result;
use crate::format::{Kind, blob_ref};
use crate::session::{Session, parse_lossy};

use super::prune::Piece;

/// oh-my-pi's `BLOB_EXTERNALIZE_THRESHOLD`: shorter base64 stays inline.
const THRESHOLD: usize = 1024;

/// One blob to store.
#[derive(Debug)]
pub struct Blob<'a> {
    /// The SHA-256 of the bytes, 64 lowercase hex digits: the file name in the store.
    pub hash: String,
    /// The decoded image.
    pub bytes: &'a [u8],
    /// The extension of the typed link beside it, from the image's MIME type.
    pub extension: Option<String>,
}

/// What moving the images does.
#[derive(Debug, Clone, Default)]
pub struct ImagesPlan {
    /// The new file.
    pub pieces: Vec<Piece>,
    /// How many images were moved.
    pub images: usize,
    /// How many lines changed.
    pub lines: usize,
    /// By how many bytes the file shrinks.
    pub saved_bytes: u64,
}

/// Plans moving every inline image of `session` into the blob store; `put` stores each blob
/// (before the line naming it is written, as oh-my-pi orders it) and may be a no-op for a dry
/// run.
pub fn plan(session: &Session, put: &mut dyn FnMut(&Blob<'_>) -> Result<()>) -> Result<ImagesPlan> {
    let mut plan = ImagesPlan::default();
    let mut start = 0;
    let mut lines = session.lines();
    for (idx, r) in session.records.iter().enumerate() {
        if !matches!(r.kind, Kind::Message | Kind::CustomMessage) {
            continue;
        }
        let raw = lines.line(idx as u32)?;
        if memchr::memmem::find(raw, b"\"image").is_none() {
            continue;
        }
        let Some((line, moved)) = externalize(raw, put)? else { continue };
        plan.pieces.push(Piece::Old(start..r.offset));
        let mut new = line;
        new.push(b'\n');
        plan.saved_bytes += (r.len + 1) - new.len() as u64;
        plan.pieces.push(Piece::New(new));
        start = (r.offset + r.len + 1).min(session.file_len);
        plan.images += moved;
        plan.lines += 1;
    }
    if plan.lines > 0 && start < session.file_len {
        plan.pieces.push(Piece::Old(start..session.file_len));
    }
    Ok(plan)
}

/// A line with its images moved out, and how many; `None` when none moves.
fn externalize(
    raw: &[u8],
    put: &mut dyn FnMut(&Blob<'_>) -> Result<()>,
) -> Result<Option<(Vec<u8>, usize)>> {
    let Some(value) = parse_lossy(raw) else { return Ok(None) };
    let mut found: Vec<(&str, Option<&str>)> = Vec::new();
    images(&value, None, &mut found);
    // Each distinct data string, in the order found, with how many images hold it.
    let mut wanted: Vec<(&str, (usize, Option<&str>))> = Vec::new();
    for (data, mime) in found {
        match wanted.iter_mut().find(|(d, _)| *d == data) {
            Some((_, (count, _))) => *count += 1,
            None => wanted.push((data, (1, mime))),
        }
    }
    let mut out = raw.to_vec();
    let mut moved = 0;
    for (data, (count, mime)) in wanted {
        let Some(bytes) = decode_canonical(data) else { continue };
        // The string as written: JSON writers put base64 in without escapes. Where it is
        // written otherwise, or also stands somewhere that is not an image, it stays.
        let literal = format!("\"{data}\"");
        if memchr::memmem::find_iter(&out, literal.as_bytes()).count() != count {
            continue;
        }
        let hash = format!("{:x}", Sha256::digest(&bytes));
        put(&Blob { hash: hash.clone(), bytes: &bytes, extension: mime.and_then(extension) })?;
        let reference = format!("\"blob:sha256:{hash}\"");
        out = replace_all(&out, literal.as_bytes(), reference.as_bytes());
        moved += count;
    }
    Ok((moved > 0).then_some((out, moved)))
}

/// The images oh-my-pi externalizes in `value` (`isExternalizableImagePosition`): `key` is the
/// key of the array an object sits in.
fn images<'v>(value: &'v Value, key: Option<&str>, out: &mut Vec<(&'v str, Option<&'v str>)>) {
    match value {
        Value::Object(map) => {
            // Any JSON, walked as oh-my-pi's blob store walks it, not an entry's payload.
            let data = map.get("data").and_then(Value::as_str);
            let kind = map.get("type").and_then(Value::as_str);
            let mime = map.get("mimeType").and_then(Value::as_str);
            let image_mime = mime.is_some_and(|m| m.to_ascii_lowercase().starts_with("image/"));
            let position = match key {
                Some("content") => kind == Some("image"),
                Some("images") => kind == Some("image") || image_mime,
                _ => false,
            };
            if let Some(data) = data
                && position
                && blob_ref(data).is_none()
                && data.len() >= THRESHOLD
            {
                out.push((data, mime));
                return;
            }
            for (k, v) in map {
                if let Value::Array(items) = v {
                    items.iter().for_each(|item| images(item, Some(k), out));
                } else {
                    images(v, None, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| images(item, key, out)),
        _ => {}
    }
}

/// oh-my-pi's `blobExtensionForImageMimeType`.
fn extension(mime: &str) -> Option<String> {
    let lower = mime.to_ascii_lowercase();
    let known = match lower.as_str() {
        "image/png" => Some("png"),
        "image/jpeg" | "image/jpg" => Some("jpg"),
        "image/gif" => Some("gif"),
        "image/webp" => Some("webp"),
        "image/svg+xml" => Some("svg"),
        _ => None,
    };
    if let Some(known) = known {
        return Some(known.to_owned());
    }
    let subtype = lower.strip_prefix("image/")?.split(';').next()?.split('+').next()?;
    let mut chars = subtype.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
    let ok = first_ok
        && subtype.len() <= 32
        && subtype.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    ok.then(|| subtype.to_owned())
}

fn replace_all(haystack: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut at = 0;
    for found in memchr::memmem::find_iter(haystack, needle) {
        out.extend_from_slice(&haystack[at..found]);
        out.extend_from_slice(with);
        at = found + needle.len();
    }
    out.extend_from_slice(&haystack[at..]);
    out
}

/// The bytes of standard padded base64 that encodes back to exactly `text` (no whitespace, the
/// padding and the unused bits as an encoder writes them); `None` otherwise.
fn decode_canonical(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(4) {
        return None;
    }
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let pad = b.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    for (i, quad) in b.chunks(4).enumerate() {
        let last = i == b.len() / 4 - 1;
        let n = if last { 4 - pad } else { 4 };
        let mut acc = 0u32;
        for (j, &c) in quad.iter().enumerate() {
            acc <<= 6;
            if j < n {
                acc |= value(c)?;
            }
        }
        let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        let keep = match n {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return None,
        };
        // The bits past the last whole byte must be zero, as an encoder writes them.
        if bytes[keep..].iter().any(|&x| x != 0) {
            return None;
        }
        out.extend_from_slice(&bytes[..keep]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_canonical_base64_decodes() {
        assert_eq!(decode_canonical("QUJD").unwrap(), b"ABC");
        assert_eq!(decode_canonical("QUI=").unwrap(), b"AB");
        assert_eq!(decode_canonical("QQ==").unwrap(), b"A");
        for bad in ["", "QUJ", "QUJ=D", "QR==", "Q===", "QU I", "QUJD\n"] {
            assert!(decode_canonical(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn extensions_follow_oh_my_pi() {
        assert_eq!(extension("image/png").as_deref(), Some("png"));
        assert_eq!(extension("image/JPEG").as_deref(), Some("jpg"));
        assert_eq!(extension("image/x-icon; q=1").as_deref(), Some("x-icon"));
        assert_eq!(extension("image/svg+xml").as_deref(), Some("svg"));
        assert_eq!(extension("text/plain"), None);
    }

    /// A content image and an `images` entry move; a small one, a reference, and the same
    /// string outside an image position stay; every other byte is kept.
    #[test]
    fn images_move_and_the_rest_of_the_line_stays() {
        let big = "QUJD".repeat(300);
        let other = "QkNE".repeat(300);
        let line = format!(
            r#"{{"type":"message","id":"a", "message":{{"role":"toolResult","content":[{{"type":"image","data":"{big}","mimeType":"image/png"}},{{"type":"image","data":"QUJD"}},{{"type":"image","data":"blob:sha256:00"}}],"details":{{"images":[{{"data":"{big}","mimeType":"image/png"}}],"note":"{other}"}}}},"x":"{other}"}}"#
        );
        let mut stored = Vec::new();
        let (out, moved) = externalize(line.as_bytes(), &mut |b| {
            stored.push((b.hash.clone(), b.bytes.len(), b.extension.clone()));
            Ok(())
        })
        .unwrap()
        .unwrap();
        assert_eq!(moved, 2);
        let hash = format!("{:x}", Sha256::digest("ABC".repeat(300)));
        assert_eq!(stored, [(hash.clone(), 900, Some("png".to_string()))]);
        let want = line.replace(&format!("\"{big}\""), &format!("\"blob:sha256:{hash}\""));
        assert_eq!(String::from_utf8(out).unwrap(), want);
        // The same string where it is no image (a note) keeps every copy inline.
        let noted = line.replace(&format!("\"note\":\"{other}\""), &format!("\"note\":\"{big}\""));
        assert!(externalize(noted.as_bytes(), &mut |_| Ok(())).unwrap().is_none());
    }
}
