//! The `sesstree` binary.
fn main() {}
