#!/usr/bin/env bash
# Times `sesstree grep` against ripgrep and jq over a directory of generated sessions of about
# 1.1 GB in all (issue "sesstree grep": within 2x of `rg -c`, 1.5x of `rg -l`, 10x faster
# than jq), with a warm page cache.
#
#   bench/grep.sh              # make the corpus once under $BENCH_DIR/grep-corpus, then time
#
# The corpus: 726 files of mixed sizes, written by bench/gen-session.py (seeds 1..726): one of
# 100,000 entries (~230 MB), 5 of 30,000, 20 of 5,000, 200 of 500 and 500 of 100. RUNS sets
# hyperfine's runs (default 10). Installs ripgrep, jq and hyperfine with apt-get when missing
# (as root) and needs python3.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

missing=()
command -v rg >/dev/null || missing+=(ripgrep)
command -v jq >/dev/null || missing+=(jq)
command -v hyperfine >/dev/null || missing+=(hyperfine)
if [ ${#missing[@]} -gt 0 ]; then
    echo "grep.sh: installing ${missing[*]}" >&2
    apt-get install -y "${missing[@]}" >/dev/null
fi

dir=${BENCH_DIR:-/work/benchdata}
if ! mkdir -p "$dir" 2>/dev/null || [ ! -w "$dir" ]; then
    dir="$root/target/bench-data"
fi
corpus="$dir/grep-corpus"
if [ ! -f "$corpus/.done" ]; then
    echo "grep.sh: writing the corpus to $corpus (a few minutes)..." >&2
    rm -rf "$corpus"
    mkdir -p "$corpus"
    seed=0
    make() { # COUNT ENTRIES
        for _ in $(seq "$1"); do
            seed=$((seed + 1))
            branches=$(($2 / 1000 + 1))
            python3 "$here/gen-session.py" -n "$2" -b "$branches" --seed "$seed" \
                -o "$corpus/s$seed-$2.jsonl" 2>/dev/null &
            # Two at a time: the machine has two cores.
            if (( seed % 2 == 0 )); then wait; fi
        done
        wait
    }
    make 1 100000
    make 5 30000
    make 20 5000
    make 200 500
    make 500 100
    touch "$corpus/.done"
fi
echo "corpus: $(find "$corpus" -name '*.jsonl' | wc -l) files, $(du -sh "$corpus" | cut -f1)" >&2

echo "building sesstree (dist profile)..." >&2
(cd "$root" && cargo build --profile dist --quiet)
bin="$root/target/dist/sesstree"
runs=${RUNS:-10}

# Warm the page cache.
cat "$corpus"/*.jsonl >/dev/null

# A literal that about one line in four holds, one in 400 (in a third of the files), and a
# regex whose literal prefix is common.
literal=rollback
rare=parserWriter
regex='retry \w+ timeout'
jq_filter() { # PATTERN: the entries whose message text matches, as `grep -c` counts them
    printf '%s' "select(.type == \"message\") | select([.message.content | if type == \"string\" then . else (.[]? | .text? // .thinking? // (.arguments? | .. | strings?)) end | strings | test(\"$1\")] | any)"
}

hyperfine --warmup 1 --runs "$runs" -N --export-markdown "$dir/grep-bench.md" \
    -n "rg -c $literal" "rg -c $literal $corpus" \
    -n "sesstree grep -c $literal" "$bin grep -c $literal $corpus" \
    -n "rg -c $rare" "rg -c $rare $corpus" \
    -n "sesstree grep -c $rare" "$bin grep -c $rare $corpus" \
    -n "rg -c '$regex'" "rg -c '$regex' $corpus" \
    -n "sesstree grep -c '$regex'" "$bin grep -c '$regex' $corpus" \
    -n "rg -l $literal" "rg -l $literal $corpus" \
    -n "sesstree grep -l $literal" "$bin grep -l $literal $corpus" \
    -n "rg $rare" "rg $rare $corpus" \
    -n "sesstree grep $rare" "$bin grep $rare $corpus" \
    >&2
hyperfine --runs 1 -n "jq: entries matching $literal" \
    "sh -c 'cat $corpus/*.jsonl | jq -c \"$(jq_filter $literal | sed 's/"/\\"/g')\" | wc -l'" \
    --export-markdown "$dir/grep-bench-jq.md" >&2
cat "$dir/grep-bench.md" "$dir/grep-bench-jq.md"
