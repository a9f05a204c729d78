#!/bin/sh
# Runs the three targets one after another, niced, for $1 seconds each (default 1500); the
# libFuzzer output of each run ends up in fuzz/logs/<target>.log. See FUZZING.md.
set -u
cd "$(dirname "$0")"
secs=${1:-1500}
mkdir -p logs
for t in ${TARGETS:-load plan rev}; do
  case $t in
    load) dirs="../tests/fixtures ../examples"; flags="-dict=dict/session.dict -max_len=16384" ;;
    plan) dirs=""; flags="-max_len=4096" ;;
    *) dirs=""; flags="-max_len=256" ;;
  esac
  echo "== $t start $(date -u +%FT%TZ)" >> logs/runs.txt
  # shellcheck disable=SC2086
  RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz run -O -a -s none "$t" "corpus/$t" $dirs -- \
    -jobs=1 -workers=1 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 $flags > "logs/$t.cargo.log" 2>&1
  rc=$?
  mv fuzz-0.log "logs/$t.log" 2>/dev/null
  echo "== $t end $(date -u +%FT%TZ) rc=$rc" >> logs/runs.txt
done
