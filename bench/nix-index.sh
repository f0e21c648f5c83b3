#!/usr/bin/env bash
# bench/nix-index.sh: times `extdeps resolve bench/nix-ten-deps --manager nix --nix-index INDEX`
# on a 100,000-attribute nixpkgs index (bench/gen-nix-index.py), cold (the cache folder removed
# before each run) and warm (kept). Not a test; CI does not run it. See bench/README.md, "The nix
# benchmark".
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bench/nix-index.sh [OPTIONS]

  -n, --runs N        measured warm runs (default 20)
  -c, --cold-runs N   measured cold runs (default 5)
  -i, --index FILE    the index to read (default: OUT/packages.json.br, generated when absent)
  -o, --out DIR       where the index, the caches and the raw numbers go
                      (default: /tmp/extdeps-nix-bench)
  -x, --extdeps BIN   the extdeps binary (default: $EXTDEPS, else build-bench/extdeps, else
                      build/extdeps)
  -h, --help          this text

It needs python3, and brotli (apt-get install -y brotli) to compress a generated index.
EOF
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=20
cold_runs=5
out=/tmp/extdeps-nix-bench
index=""
bin="${EXTDEPS:-}"
while (($#)); do
  case "$1" in
    -n|--runs) runs=$2; shift 2 ;;
    -c|--cold-runs) cold_runs=$2; shift 2 ;;
    -i|--index) index=$2; shift 2 ;;
    -o|--out) out=$2; shift 2 ;;
    -x|--extdeps) bin=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench/nix-index.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [[ -z $bin ]]; then
  for b in "$repo/build-bench/extdeps" "$repo/build/extdeps"; do
    if [[ -x $b ]]; then bin=$b; break; fi
  done
fi
[[ -x $bin ]] || { echo "bench/nix-index.sh: no extdeps binary (build one, or --extdeps BIN)" >&2; exit 2; }
mkdir -p "$out"
if [[ -z $index ]]; then
  index="$out/packages.json.br"
  if [[ ! -f $index ]]; then
    command -v brotli >/dev/null || { echo "bench/nix-index.sh: brotli is missing (apt-get install -y brotli)" >&2; exit 2; }
    python3 "$repo/bench/gen-nix-index.py" "$out/packages.json"
    brotli -q 9 -f -o "$index" "$out/packages.json"
  fi
fi

cmd=("$bin" resolve "$repo/bench/nix-ten-deps" --manager nix --nix-index "$index")
mkdir -p "$out/home"
env=(env EXTDEPS_NIX_SYSTEM=x86_64-linux "HOME=$out/home")  # an empty HOME: no profile
# The plan must be the expected one before anything is timed.
rm -rf "$out/cache-check"
"${env[@]}" "${cmd[@]}" --cache-dir "$out/cache-check" >"$out/plan.txt" || {
  echo "bench/nix-index.sh: extdeps failed; its output:" >&2; cat "$out/plan.txt" >&2; exit 3; }

python3 - "$out" "$runs" "$cold_runs" "${env[@]}" "${cmd[@]}" <<'PYEOF'
import os, shutil, statistics, subprocess, sys, time
out, runs, cold_runs, cmd = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]

def once(cache):
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(cmd + ['--cache-dir', cache], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter_ns()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit('extdeps failed during the timing')
    return (t1 - t0) / 1e6, (ru.ru_utime + ru.ru_stime) * 1e3, ru.ru_maxrss / 1024

rows = {}
cold = os.path.join(out, 'cache-cold')
r = []
for _ in range(cold_runs):
    shutil.rmtree(cold, ignore_errors=True)
    r.append(once(cold))
rows['cold'] = r
warm = os.path.join(out, 'cache-warm')
shutil.rmtree(warm, ignore_errors=True)
once(warm)  # fills the cache (HTTP copy and .solv)
rows['warm'] = [once(warm) for _ in range(runs)]
load = open('/proc/loadavg').read().split()[:3]
print('load %s, %d cores' % (' '.join(load), os.cpu_count()))
print('%-5s %4s | %-26s | %-26s | %s' % ('', '', 'wall ms', 'CPU ms (user+sys)', 'peak RSS MiB'))
print('%-5s %4s | %8s %8s %8s | %8s %8s %8s | %8s' % ('case', 'N', 'median', 'min', 'max', 'median', 'min', 'max', 'median'))
for k, v in rows.items():
    w = [x[0] for x in v]; c = [x[1] for x in v]; m = [x[2] for x in v]
    print('%-5s %4d | %8.1f %8.1f %8.1f | %8.1f %8.1f %8.1f | %8.1f' % (k, len(v), statistics.median(w), min(w), max(w),
          statistics.median(c), min(c), max(c), statistics.median(m)))
PYEOF
