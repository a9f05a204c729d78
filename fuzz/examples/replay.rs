//! Runs the `load` target's checks over files, without libFuzzer: to replay a corpus on a
//! machine without `cargo fuzz` (`cargo run --release --example replay -- corpus/load/*`).
fn main() {
    let mut n = 0;
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).expect("readable input");
        let run = std::panic::catch_unwind(|| {
            sesstree_fuzz::check_scanner(&data);
            let session = sesstree_fuzz::load(data.clone());
            sesstree_fuzz::exercise(&session);
            let gisted = sesstree_fuzz::check_gists(&data, &session);
            sesstree_fuzz::check_pieces(&data, &gisted);
        });
        if run.is_err() {
            eprintln!("failed: {path}");
            std::process::exit(1);
        }
        n += 1;
    }
    println!("{n} inputs, no failure");
}
