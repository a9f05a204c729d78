//! Tree-shaped session files (parents earlier, later, missing or self, duplicate ids, torn
//! tails, stray lines), read in full, then one writing operation planned and applied in memory
//! the way `store` applies it, and the result checked against a model of the operation:
//! `label`, `checkout`, `branch`, `name`, `migrate` and `fsck --repair`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sesstree_fuzz::{Bytes, exercise, generate, load, ops};

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let (bytes, ids) = generate(&mut b);
    let before = load(bytes.clone());
    exercise(&before);
    match b.below(6) {
        0 => ops::label(&before, &bytes, &ids, &mut b),
        1 => ops::checkout(&before, &bytes, &mut b),
        2 => ops::branch(&before, &mut b),
        3 => ops::name(&before, &bytes, &mut b),
        4 => ops::migrate(&before),
        _ => ops::repair(&before, &mut b),
    }
});
