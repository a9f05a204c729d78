#!/bin/sh
# Regenerates the committed man pages (man/) and static completion scripts (completions/) from
# the binary, after any change to a command's arguments or help text. tests/cli/generated.rs
# fails until they match; `SESSTREE_BLESS=1 cargo test --test cli generated` does the same.
set -eu
cd "$(dirname "$0")/.."
cargo build --quiet
# Start empty so that the pages of a renamed or removed command do not linger.
rm -rf man completions
cargo run --quiet -- generate man man
cargo run --quiet -- generate completions completions
