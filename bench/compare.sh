#!/usr/bin/env bash
# Times sesstree against `wc -l` and `jq` on generated session files (SPEC §8), and measures
# peak memory against the file size.
#
#   bench/compare.sh                 # the 100k-entry file (~230 MB)
#   bench/compare.sh 100000 1000000  # also the 1M-entry file (~2.3 GB; generating takes minutes)
#   bench/compare.sh 1000000:0.1     # 1M lean entries (texts a tenth as long, ~640 MB)
#
# Each argument is an entry count, with `:SCALE` for texts of another size; the file is
# `gen-session.py -n N -b N/1000 --seed 42 [--scale SCALE]`, made once under $BENCH_DIR
# (default /work/benchdata, or ./target/bench-data when that is not writable) and reused.
# RUNS sets hyperfine's runs (default 5; 3 for files over 1 GB), WARMUP its warm-up runs
# (default 1). BASELINE=/path/to/an/older/sesstree adds its `log` and `tree --json` for
# comparison. A second table times the named commands again in runs that
# alternate them with `wc -l` (bench/alternate.py), ROUNDS rounds (default 21; 5 over 1 GB).
# Needs hyperfine, jq, GNU time (/usr/bin/time) and python3.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
command -v jq >/dev/null || missing+=(jq)
[ -x /usr/bin/time ] || missing+=(time)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
    echo "compare.sh: missing ${missing[*]}; install with: apt-get install -y ${missing[*]}" >&2
    exit 2
fi

dir=${BENCH_DIR:-/work/benchdata}
if ! mkdir -p "$dir" 2>/dev/null || [ ! -w "$dir" ]; then
    dir="$root/target/bench-data"
    mkdir -p "$dir"
fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000)
for arg in "${sizes[@]}"; do
    if ! [[ "$arg" =~ ^[0-9]+(:[0-9]*\.?[0-9]+)?$ ]]; then
        echo "compare.sh: $arg: expected ENTRIES or ENTRIES:SCALE (1000000:0.1)" >&2
        exit 2
    fi
done

echo "building sesstree (dist profile)..." >&2
(cd "$root" && cargo build --profile dist --quiet)
bin="$root/target/dist/sesstree"

# Commands that exist in this build; `context` and `label` may not yet.
has() { "$bin" "$1" --help >/dev/null 2>&1; }

results="$dir/results-$(IFS=-; echo "${sizes[*]}").tsv"
: >"$results"
for arg in "${sizes[@]}"; do
    n=${arg%%:*}
    scale=1
    [ "$arg" = "$n" ] || scale=${arg#*:}
    # The files' names, and the tables' headings: the count, and the scale where it is not 1.
    tag=$n
    [ "$scale" = 1 ] || tag="$n-scale$scale"
    file="$dir/s$tag.jsonl"
    if [ ! -s "$file" ]; then
        echo "generating $file ..." >&2
        python3 "$here/gen-session.py" -n "$n" -b $((n / 1000 > 0 ? n / 1000 : 1)) --seed 42 \
            --scale "$scale" -o "$file.tmp" --stats "$dir/s$tag.stats.json"
        mv "$file.tmp" "$file"
    fi
    size=$(stat -L -c %s "$file")
    runs=${RUNS:-$([ "$size" -gt 1000000000 ] && echo 3 || echo 5)}
    cat "$file" >/dev/null # warm the page cache
    copy="$dir/s$tag.label-copy.jsonl"

    names=("wc -l" "jq -c '{id,parentId}'" "sesstree log" "sesstree tree --json")
    cmds=("wc -l $file" "jq -c '{id,parentId}' $file" "$bin -f $file log" "$bin -f $file tree --json")
    prepare=("" "" "" "")
    # Loading and indexing alone (what every command pays, and most of what `label` does).
    names+=("sesstree show @ --raw")
    cmds+=("$bin -f $file show @ --raw")
    prepare+=("")
    # The latest rows: worked out for the end of the path only.
    names+=("sesstree log -n 10")
    cmds+=("$bin -f $file log -n 10")
    prepare+=("")
    if [ -n "${BASELINE:-}" ]; then
        names+=("baseline log" "baseline tree --json")
        cmds+=("$BASELINE -f $file log" "$BASELINE -f $file tree --json")
        prepare+=("" "")
    fi
    if has context; then
        names+=("sesstree context --json")
        cmds+=("$bin -f $file context --json")
        prepare+=("")
    fi
    if has label; then
        # label appends: each run works on a fresh copy (the copy is not timed).
        names+=("sesstree label @ bench")
        cmds+=("$bin -f $copy label @ bench")
        # Synced, as a session file normally is: else the fsync of the append writes the
        # whole fresh copy and times the disk, not sesstree.
        prepare+=("cp $file $copy && sync $copy")
    fi
    if has stats; then
        names+=("sesstree stats")
        cmds+=("$bin stats $file")
        prepare+=("")
    fi

    for i in "${!cmds[@]}"; do
        json="$dir/hf-$tag-$i.json"
        args=(--style none --warmup "${WARMUP:-1}" --runs "$runs" --export-json "$json")
        [ -n "${prepare[$i]}" ] && args+=(--prepare "${prepare[$i]}")
        echo "[$tag] ${names[$i]}" >&2
        hyperfine "${args[@]}" "${cmds[$i]}" >/dev/null 2>&1 || {
            echo "  failed: ${cmds[$i]}" >&2
            continue
        }
        [ -n "${prepare[$i]}" ] && eval "${prepare[$i]}"
        rss=$( { /usr/bin/time -f "%M" bash -c "${cmds[$i]} >/dev/null 2>/dev/null"; } 2>&1 | tail -1)
        mean=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(r['mean'], r['stddev'] or 0, r['user'] + r['system'])" "$json")
        printf '%s\t%s\t%s\t%s\t%s\n' "$tag" "$size" "${names[$i]}" "$mean" "$rss" >>"$results"
    done
    rm -f "$copy"

    # Ratios to `wc -l` from runs that alternate the commands with it, round after round
    # (medians): the machine's speed drifts within minutes, and moves commands run in turn
    # alike, where hyperfine's runs of one command after another drift apart.
    alt=("wc -l $file" "$bin -f $file log" "$bin -f $file tree --json" "$bin -f $file show @ --raw")
    has context && alt+=("$bin -f $file context --json")
    [ -n "${BASELINE:-}" ] && alt+=("$BASELINE -f $file log" "$BASELINE -f $file tree --json")
    rounds=${ROUNDS:-$([ "$size" -gt 1000000000 ] && echo 5 || echo 21)}
    echo "[$tag] alternating, $rounds rounds" >&2
    python3 "$here/alternate.py" "$rounds" "${alt[@]}" |
        sed -e "s|$bin -f $file |sesstree |" -e "s|${BASELINE:-//} -f $file |baseline |" \
            -e "s|$file|FILE|" >"$dir/alt-$tag.txt"
done

python3 - "$results" "$dir" <<'PY'
import re
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
by_file = {}
for n, size, name, times, rss in rows:
    mean, sd, cpu = (float(x) for x in times.split())
    by_file.setdefault((n, int(size)), []).append((name, mean, sd, cpu, int(rss)))
for (n, size), cmds in by_file.items():
    wall = {name: mean for name, mean, _, _, _ in cmds}
    wc, jq = wall.get("wc -l"), wall.get("jq -c '{id,parentId}'")
    count, _, scale = n.partition("-scale")
    lean = f" (texts at scale {scale})" if scale else ""
    print(f"\n{int(count)} entries{lean}, {size / 1e6:,.0f} MB\n")
    print("| command | wall (s) | CPU user+sys (s) | wall ÷ `wc -l` | `jq` wall ÷ it | peak RSS (MiB) | RSS ÷ file size |")
    print("|---|---|---|---|---|---|---|")
    for name, mean, sd, cpu, rss in cmds:
        ratio_wc = f"{mean / wc:.1f}" if wc else "-"
        ratio_jq = f"{jq / mean:.1f}" if jq else "-"
        print(f"| `{name}` | {mean:.3f} ± {sd:.3f} | {cpu:.3f} | {ratio_wc} | {ratio_jq} | "
              f"{rss / 1024:.0f} | {rss * 1024 / size:.3f} |")
    try:
        alternated = open(f"{sys.argv[2]}/alt-{n}.txt").read().splitlines()
    except OSError:
        continue
    print(f"\nRuns alternating with `wc -l` (medians):\n")
    print("| command | wall (ms) | wall ÷ `wc -l` | CPU user+sys (ms) |")
    print("|---|---|---|---|")
    for line in alternated:
        m = re.match(r"\s*([\d.]+) ms\s+([\d.]+)×\s+cpu\s+([\d.]+) ms\s+(.*)", line)
        if m:
            wall, ratio, cpu, name = m.groups()
            print(f"| `{name.replace(' FILE', '')}` | {wall} | {ratio} | {cpu} |")
PY
