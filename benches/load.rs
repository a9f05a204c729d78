//! Criterion benchmarks of the hot paths on a session generated in memory: the envelope
//! scanner, loading and indexing (with and without each entry's row, its gist), the tree layout,
//! and rendering rows.
//!
//! `cargo bench --bench load`. For whole-command timings against `wc -l` and `jq` on large
//! files, see `bench/compare.sh`.

use std::hint::black_box;
use std::path::Path;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;
use sesstree::Session;
use sesstree::format::scan_envelope;
use sesstree::row::Rows;
use sesstree::row::gist::Resolver;
use sesstree::row::view::Viewer;
use sesstree::tree::{TreeOptions, layout};

/// A deterministic session of `turns` turns shaped like the agents' (user prompt, assistant
/// tool calls, tool results with escaped code text, final answer), with a branch every 50 turns.
fn session_bytes(turns: usize) -> Vec<u8> {
    let code = "export function cartTotal(items: Item[]): number {\n\treturn items.reduce((s, i) => s + i.price * i.qty, 0);\n}\n\tlogger.debug(\"total\", { cart, user });\n";
    let mut seed = 42u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed >> 33
    };
    let mut out = Vec::new();
    let header = json!({"type": "session", "version": 3, "id": "bench", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/w"});
    out.extend(serde_json::to_vec(&header).unwrap_or_default());
    out.push(b'\n');
    let mut n = 0u64;
    let mut leaf: Option<String> = None;
    let mut turn_ends: Vec<String> = Vec::new();
    let mut push = |out: &mut Vec<u8>, leaf: &mut Option<String>, mut entry: serde_json::Value| {
        n += 1;
        let id = format!("{n:08x}");
        entry["id"] = json!(id);
        entry["parentId"] = json!(leaf.clone());
        entry["timestamp"] =
            json!(format!("2026-01-01T00:{:02}:{:02}.000Z", (n / 60) % 60, n % 60));
        out.extend(serde_json::to_vec(&entry).unwrap_or_default());
        out.push(b'\n');
        *leaf = Some(id);
    };
    for turn in 0..turns {
        if turn > 0 && turn % 50 == 0 && turn_ends.len() > 3 {
            leaf = turn_ends.get(turn_ends.len() - 3).cloned();
        }
        push(
            &mut out,
            &mut leaf,
            json!({"type": "message", "message": {"role": "user", "content": format!("Please fix the failing test number {turn}; the cart total is wrong when items repeat.")}}),
        );
        for step in 0..(next() % 4) {
            let call = format!("toolu_{turn}_{step}");
            let (name, args) = match next() % 3 {
                0 => ("read", json!({"path": "/w/src/cart.ts"})),
                1 => ("bash", json!({"command": "npm test -- cart", "timeout": 120})),
                _ => ("edit", json!({"path": "/w/src/cart.ts", "oldText": code, "newText": code})),
            };
            push(
                &mut out,
                &mut leaf,
                json!({"type": "message", "message": {"role": "assistant", "stopReason": "toolUse",
                "content": [{"type": "thinking", "thinking": "Looking at the cart code again."},
                            {"type": "toolCall", "id": call, "name": name, "arguments": args}],
                "usage": {"input": 100, "output": 50, "cacheRead": 1000, "cacheWrite": 0, "totalTokens": 1150, "cost": {"total": 0.01}}}}),
            );
            let output = code.repeat(1 + (next() % 30) as usize);
            push(
                &mut out,
                &mut leaf,
                json!({"type": "message", "message": {"role": "toolResult", "toolCallId": call, "toolName": name,
                "content": [{"type": "text", "text": output}], "isError": false}}),
            );
        }
        push(
            &mut out,
            &mut leaf,
            json!({"type": "message", "message": {"role": "assistant", "stopReason": "stop",
            "content": [{"type": "text", "text": format!("Fixed: the total now counts each item once.\n\n```ts\n{code}```")}]}}),
        );
        if let Some(l) = &leaf {
            turn_ends.push(l.clone());
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let bytes = session_bytes(1500);
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    let path = Path::new("bench.jsonl");

    let mut group = c.benchmark_group("session");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("scan_envelope", |b| {
        b.iter(|| {
            for line in &lines {
                black_box(scan_envelope(line).is_ok());
            }
        });
    });
    group.bench_function("load", |b| {
        b.iter_batched(
            || bytes.clone(),
            |bytes| black_box(Session::from_bytes(path, bytes).map(|s| s.records.len())),
            BatchSize::LargeInput,
        );
    });
    // Loading with each entry's row worked out (what `log` and `tree` do), then every row
    // given its text in file order.
    let with_gists = Rows::new(Some("/home/u"));
    group.bench_function("load_with_gists", |b| {
        b.iter_batched(
            || bytes.clone(),
            |bytes| {
                let Ok((_, gists)) = Session::from_bytes_with(path, bytes, &with_gists) else {
                    return 0;
                };
                let mut resolver = Resolver::default();
                let rows = gists.iter().map(|g| resolver.resolve(g).text());
                black_box(rows.map(|t| t.map_or(0, str::len)).sum::<usize>())
            },
            BatchSize::LargeInput,
        );
    });
    let Ok(session) = Session::from_bytes(path, bytes.clone()) else { return };
    let opts = TreeOptions { leaf: session.leaf(), include_archived: false, active_first: true };
    group.bench_function("layout", |b| b.iter(|| black_box(layout(&session, &opts).rows.len())));
    group.bench_function("rows", |b| {
        b.iter(|| {
            let mut viewer = Viewer::new(&session, Some("/home/u"));
            let mut total = 0;
            for idx in 0..session.records.len() as u32 {
                if let Ok(view) = viewer.view(idx) {
                    total += view.text.len();
                }
            }
            black_box(total)
        });
    });
    group.bench_function("full_values", |b| {
        b.iter(|| {
            let mut total = 0;
            for idx in 0..session.records.len() as u32 {
                if let Ok(value) = session.value(idx) {
                    total += value.as_object().map_or(0, |m| m.len());
                }
            }
            black_box(total)
        });
    });
    group.finish();
}

criterion_group!(load, benches);
criterion_main!(load);
