//! Arbitrary bytes as a session file: loading never panics, and everything the read side
//! offers (index, layout, labels, name, REVs, one-line texts, context, stats) keeps its
//! invariants on whatever loaded; loading with gists changes nothing of the index and gives
//! the rows the Viewer gives; the parallel loader, in small pieces, gives what one pass gives.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    sesstree_fuzz::check_scanner(data);
    let session = sesstree_fuzz::load(data.to_vec());
    sesstree_fuzz::exercise(&session);
    let gisted = sesstree_fuzz::check_gists(data, &session);
    sesstree_fuzz::check_pieces(data, &gisted);
});
