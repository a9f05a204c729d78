//! Ids for version-1 files, which have none. sesstree reads a v1 file with the ids `migrate`
//! would give it, so both must derive them the same way: from the record's position and bytes,
//! so the same file always gets the same ids (FORMAT §11 notes the reference's are random).

use sha2::{Digest, Sha256};

/// The id of record `index` (the header is record 0) with these bytes, trying `counter` to get
/// past a collision: the first 8 hex digits of sha256(index, counter, line).
pub(crate) fn derive_id(index: usize, counter: u32, line: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(index.to_string().as_bytes());
    hasher.update([0]);
    hasher.update(counter.to_string().as_bytes());
    hasher.update([0]);
    hasher.update(line);
    let digest = hasher.finalize();
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

/// Derives a fresh id for record `index`, unique against `taken`.
pub(crate) fn unique_id(index: usize, line: &[u8], taken: impl Fn(&str) -> bool) -> String {
    let mut counter = 0;
    loop {
        let id = derive_id(index, counter, line);
        if !taken(&id) {
            return id;
        }
        counter += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_hex() {
        let a = derive_id(3, 0, b"{\"type\":\"message\"}");
        assert_eq!(a, derive_id(3, 0, b"{\"type\":\"message\"}"));
        assert_eq!(a.len(), 8);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_ne!(a, derive_id(4, 0, b"{\"type\":\"message\"}"));
    }

    #[test]
    fn collisions_move_on() {
        let first = derive_id(1, 0, b"x");
        let id = unique_id(1, b"x", |c| c == first);
        assert_eq!(id, derive_id(1, 1, b"x"));
    }
}
