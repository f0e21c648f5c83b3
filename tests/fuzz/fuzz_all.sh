#!/usr/bin/env bash
# Fuzzes the harnesses one after the other (one fuzzer process at a time), each for SECONDS:
#   tests/fuzz/fuzz_all.sh BUILD_DIR WORK_DIR SECONDS [harness...]
# BUILD_DIR is an EXTDEPS_FUZZ=ON build; WORK_DIR gets per harness a working corpus (seeded from
# tests/fuzz/corpus/<harness>/seed-*), the findings (artifacts/<harness>/) and the log. A finding
# ends a libFuzzer run; the harness is then run again for what is left of its time (fork mode
# would go on by itself, at a fraction of the speed).
set -uo pipefail
build=$1 work=$2 seconds=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  harnesses=($(ls "$here/corpus"))
fi
mkdir -p "$work"
for h in "${harnesses[@]}"; do
  bin=$build/tests/fuzz/fuzz_$h
  mkdir -p "$work/$h/corpus" "$work/$h/artifacts"
  cp -n "$here/corpus/$h"/seed-* "$work/$h/corpus/" 2>/dev/null
  echo "== $h $(date -u +%H:%M:%S)"
  start=$(date +%s) runs=0 execs=0
  while left=$((seconds - ($(date +%s) - start))); [ "$left" -gt 5 ]; do
    runs=$((runs + 1))
    nice -n 10 "$bin" "$work/$h/corpus" -max_total_time="$left" -rss_limit_mb=2048 -timeout=10 \
      -max_len=16384 -print_final_stats=1 -artifact_prefix="$work/$h/artifacts/" \
      > "$work/$h/log.$runs" 2>&1
    n=$(grep -E '^stat::number_of_executed_units' "$work/$h/log.$runs" | awk '{print $2}')
    execs=$((execs + ${n:-0}))
  done
  echo "   seconds: $(($(date +%s) - start)) runs: $runs executions: $execs" \
       "findings: $(ls "$work/$h/artifacts" | wc -l)"
done
