//! `sesstree`: the session model behind the `sesstree` command.
//!
//! A session file of the oh-my-pi and pi coding agents is an append-only JSONL log whose entries
//! form a tree through `id` / `parentId`. This library loads such a file in one pass into an
//! index of envelopes (type, ids, timestamp, byte range) and parses payloads only for the
//! entries an operation shows; listings of a whole file work out each entry's row in that same
//! pass instead. It never prints and never exits; the binary does that.
//!
//! # A map of the crate
//!
//! The modules form layers, each using only the layers above it in this list (a unit test,
//! `layers`, holds them to it):
//!
//! 1. Leaves, which know nothing of sessions: [`error`], [`id`] (entry ids), [`clock`],
//!    [`naming`] (session names as the agents clean them), [`js`] (JavaScript's semantics),
//!    [`terminal`] (escaping for a terminal), [`process`] (running the user's programs),
//!    [`id_gen`] (new ids), [`markdown`] (transcript Markdown made safe to embed), `in_order`
//!    (work in pieces on every core, taken in order), [`lease`] (whether oh-my-pi has a session
//!    open), [`platform`] (what Unix and Windows offer differently).
//! 2. [`json`]: JSON as bytes: the line scanner, member spans for byte-preserving edits, the
//!    transcoder.
//! 3. [`format`](mod@format): what one line means: its [`format::Kind`], envelope, the title slot,
//!    version 1.
//! 4. [`session`]: the index a load builds ([`Session`]); start reading here. What a load
//!    works out besides the index comes in as a [`session::Digest`].
//! 5. [`row`]: one entry as a row: the typed view of what a row reads ([`row::Entry`]), its
//!    one-line text, search text, filter facts and tool calls, and the gists `log` and `tree`
//!    work out while loading ([`row::Rows`]).
//! 6. What commands do with a session: [`tree`] (the selector's layout), [`rev`] (REVs),
//!    [`store`] (the only writer), [`discover`] and [`sessions`] (finding and listing session
//!    files), [`hooks`], [`summarize`], [`migrate`], [`stats`], [`context`] (what the model
//!    sees).
//! 7. [`fsck`] (damage and repair), [`ops`] (the plans of the writing commands), [`grep`]
//!    (search across sessions) and [`export`] (the whole tree as an HTML page or Markdown).
//! 8. [`render`]: the `--json` row.
#![warn(missing_docs)]

// 1. Leaves.
pub mod clock;
pub mod error;
pub mod id;
pub mod id_gen;
pub(crate) mod in_order;
pub mod js;
pub mod lease;
pub mod markdown;
pub mod naming;
pub mod platform;
pub mod process;
pub mod terminal;
// 2–5. The read path.
pub mod format;
pub mod json;
pub mod row;
pub mod session;
// 6–7. What commands do.
pub mod context;
pub mod discover;
pub mod export;
pub mod fsck;
pub mod grep;
pub mod hooks;
pub mod migrate;
pub mod ops;
pub mod rev;
pub mod sessions;
pub mod stats;
pub mod store;
pub mod summarize;
pub mod tree;
// 8. Output.
pub mod render;

pub use error::{Error, ErrorKind, Result};
pub use id::EntryId;
pub use session::Session;

#[cfg(test)]
mod layers {
    //! The layers of the crate map point one way.

    use std::collections::BTreeSet;
    use std::path::Path;

    /// The crate's modules, layer by layer, as the crate map lists them: a module may use the
    /// modules of the layers before its own, and none of its own layer or after.
    const LAYERS: &[&[&str]] = &[
        &[
            "error", "id", "clock", "naming", "js", "terminal", "process", "id_gen", "markdown",
            "in_order", "lease", "platform",
        ],
        &["json"],
        &["format"],
        &["session"],
        &["row"],
        &[
            "tree",
            "rev",
            "store",
            "discover",
            "sessions",
            "hooks",
            "summarize",
            "migrate",
            "stats",
            "context",
        ],
        &["fsck", "ops", "grep", "export"],
        &["render"],
    ];

    fn layer(module: &str) -> Option<usize> {
        LAYERS.iter().position(|layer| layer.contains(&module))
    }

    /// The top-level modules a source file names through `crate::`, outside comments.
    fn uses(text: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or_default();
            for (at, _) in code.match_indices("crate::") {
                let name: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.insert(name);
            }
        }
        out
    }

    fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_module_uses_only_the_layers_before_its_own() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let mut checked = 0;
        let mut wrong = Vec::new();
        for file in files {
            let relative = file.strip_prefix(&src).unwrap();
            let first = relative.components().next().unwrap().as_os_str().to_str().unwrap();
            let module = first.trim_end_matches(".rs");
            // The binary is a crate of its own, over this one.
            if matches!(module, "cli" | "main" | "lib") {
                continue;
            }
            let own = layer(module).unwrap_or_else(|| panic!("{module} is in no layer"));
            for used in uses(&std::fs::read_to_string(&file).unwrap()) {
                if used == module {
                    continue;
                }
                match layer(&used) {
                    Some(theirs) if theirs < own => {}
                    // Paths such as `crate::Session`, re-exported at the root.
                    None if used.starts_with(char::is_uppercase) => {}
                    _ => wrong.push(format!("{} uses crate::{used}", relative.display())),
                }
            }
            checked += 1;
        }
        assert!(wrong.is_empty(), "arrows against the layers:\n{}", wrong.join("\n"));
        assert!(checked > 40, "{checked} files");
    }

    /// Every module the crate declares has its place in a layer.
    #[test]
    fn every_module_has_a_layer() {
        let lib = include_str!("lib.rs");
        let declared: Vec<&str> = lib
            .lines()
            .filter_map(|l| {
                l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("pub(crate) mod "))
            })
            .filter_map(|l| l.strip_suffix(';'))
            .collect();
        assert!(declared.len() > 20);
        for module in &declared {
            assert!(layer(module).is_some(), "{module} is in no layer");
        }
        // And no layer names a module the crate does not have.
        assert_eq!(LAYERS.iter().map(|l| l.len()).sum::<usize>(), declared.len());
    }

    /// The check finds an arrow: a path against the layers is named.
    #[test]
    fn uses_are_read_from_code_not_comments() {
        let text = "use crate::row::Rows;\n// crate::cli is in a comment\nlet x = crate::json::MAX; // crate::ops";
        let found: Vec<String> = uses(text).into_iter().collect();
        assert_eq!(found, ["json", "row"]);
    }
}
