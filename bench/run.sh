#!/usr/bin/env bash
# bench/run.sh: times `extdeps resolve` on ten needs against this machine's apt lists, next to
# rosdep (offline, local base.yaml) and `apt-get install -s` for the same needs.
# Not a test; CI does not run it. See bench/README.md for what it measures and how to read it.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bench/run.sh [OPTIONS]

  -n, --runs N        measured runs of each warm case (default 20)
  -c, --cold-runs N   measured runs of each cold case (default 5)
  -o, --out DIR       where the raw numbers go (default: a new /tmp/extdeps-bench.XXXXXX)
  -x, --extdeps BIN   the extdeps binary (default: $EXTDEPS, else build-bench/extdeps,
                      else build/extdeps)
      --rosdep-base F rosdep YAML used as the only (local) source
                      (default: ../shared/data/rosdep/base.yaml from the repository root)
      --conda DIR     the conda benchmark instead: bench/conda-ten-deps resolved with
                      --manager conda against the channel in DIR (bench/gen-conda-channel.py
                      writes one), cold and warm; no rosdep or apt cases
      --pypi DIR      the pypi benchmark instead: bench/pypi-cuda (CUDA runtime, cuBLAS, cuDNN)
                      resolved with --manager pypi for /usr/bin/python3 against the index in DIR
                      (bench/gen-pypi-index.py writes one) served on 127.0.0.1 by
                      bench/pypi-index-server.py, cold (no cache: every page and metadata file
                      downloaded) and warm; no rosdep or apt cases
      --pacman DIR    the pacman benchmark instead: bench/pacman-ten-deps resolved with
                      --manager pacman against the Arch root DIR/root (bench/gen-pacman-repo.py
                      writes one: 50,000 packages), cold and warm, next to the real
                      `pacman -Sp --needed` for the packages of the plan on the same root
      --dnf DIR       the dnf benchmark instead: bench/dnf-ten-deps resolved with --manager dnf
                      against the Fedora root DIR/root, whose repository DIR/repo
                      (bench/gen-rpm-repo.py writes both: 50,000 packages) is read by file://,
                      cold and warm, next to the real `dnf --assumeno install` (from its own
                      metadata cache, -C) for the packages of the plan
      --homebrew DIR  the Homebrew benchmark instead: bench/homebrew-ten-deps resolved with
                      --manager brew, for macOS 14 on Apple silicon (overrides), against the
                      formula index DIR/formula.json and the prefix DIR/root/opt/homebrew
                      (bench/gen-homebrew-api.py writes both: 50,000 formulae), cold and warm;
                      no peer (brew does not run on Linux)
      --no-rosdep     skip the rosdep cases
      --no-apt        skip the apt-get -s case
      --no-hyperfine  time with the helper's pass only, even when hyperfine is installed
      --profile[=warm|cold|both]
                      instead of timing, run extdeps once under callgrind (warm by default: the
                      cache is filled first) and print the top inclusive functions and the
                      instruction count
      --top N         functions listed by --profile (default 25)
      --phases        instead of timing, run the warm case RUNS times with EXTDEPS_TIMINGS=1 and
                      print the median milliseconds of each phase (core/util/timings.h): where
                      a warm run's time goes, the pool's load and the solve apart
  -h, --help          this text

Build the binary first:
  cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C build-bench extdeps
EOF
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=20
cold_runs=5
out=""
bin="${EXTDEPS:-}"
rosdep_base="$repo/../shared/data/rosdep/base.yaml"
do_rosdep=1
do_apt=1
use_hf=1
profile=""
phases=0
top=25
conda_channel=""
pacman_dir=""
dnf_dir=""
homebrew_dir=""
pypi_index=""

while (($#)); do
  case "$1" in
    -n|--runs) runs=$2; shift 2 ;;
    -c|--cold-runs) cold_runs=$2; shift 2 ;;
    -o|--out) out=$2; shift 2 ;;
    -x|--extdeps) bin=$2; shift 2 ;;
    --rosdep-base) rosdep_base=$2; shift 2 ;;
    --conda) conda_channel=$2; shift 2 ;;
    --pacman) pacman_dir=$2; shift 2 ;;
    --dnf) dnf_dir=$2; shift 2 ;;
    --homebrew) homebrew_dir=$2; shift 2 ;;
    --pypi) pypi_index=$2; shift 2 ;;
    --no-rosdep) do_rosdep=0; shift ;;
    --no-apt) do_apt=0; shift ;;
    --no-hyperfine) use_hf=0; shift ;;
    --profile) profile=warm; shift ;;
    --profile=*) profile=${1#--profile=}; shift ;;
    --top) top=$2; shift 2 ;;
    --phases) phases=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench/run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

die() { echo "bench/run.sh: $*" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs wants a positive integer, got '$runs'"
[[ $cold_runs =~ ^[1-9][0-9]*$ ]] || die "--cold-runs wants a positive integer, got '$cold_runs'"
case "$profile" in ""|warm|cold|both) ;; *) die "--profile wants warm, cold or both" ;; esac

if [[ -z $bin ]]; then
  for b in "$repo/build-bench/extdeps" "$repo/build/extdeps"; do
    [[ -x $b ]] && { bin=$b; break; }
  done
fi
[[ -n $bin && -x $bin ]] || die "no extdeps binary (build it: see --help, or pass --extdeps)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# Python for the measuring helper: Debian's, not a pyenv shim (whose start-up would be noise).
py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3) || die "python3 is needed"

decl="$repo/bench/ten-deps"
# What a rosdep user would list for the same ten needs (keys of base.yaml). rosdep has no key
# for a C or a C++ compiler (ROS takes build-essential for granted), so two needs have none.
rosdep_keys=(cmake ninja-build pkg-config zlib libxml2 libssl-dev libpng-dev libjpeg)

if [[ -z $out ]]; then out=$(mktemp -d /tmp/extdeps-bench.XXXXXX); else mkdir -p "$out"; fi
out=$(cd "$out" && pwd)
raw="$out/raw.tsv"
work="$out/work"
rm -rf "$work"; mkdir -p "$work"

load() { cut -d' ' -f1-3 /proc/loadavg; }

# ---- the measuring helper --------------------------------------------------------------------
# Runs a command N times (after W discarded runs, each after an optional prepare command) and
# writes one line per run: case, run, wall ns, user us, sys us, peak RSS KiB, exit status.
# wall: monotonic clock around fork+exec+wait; CPU and RSS: the child's rusage from wait4(2),
# the numbers /usr/bin/time prints (%U %S %M), without a `time` process in between.
cat >"$work/measure.py" <<'PYEOF'
import os, shlex, subprocess, sys, time
case, runs, warmup, prepare, outfile, cmd = sys.argv[1:7]
runs, warmup, cmd = int(runs), int(warmup), shlex.split(cmd)  # cmd: bash's printf %q words
with open(outfile, 'a') as out:
    for i in range(-warmup, runs):
        if prepare:
            subprocess.run(prepare, shell=True, check=True)
        t0 = time.perf_counter_ns()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        t1 = time.perf_counter_ns()
        p.returncode = os.waitstatus_to_exitcode(status)
        if i < 0:
            continue
        out.write('%s\t%d\t%d\t%d\t%d\t%d\t%d\n' % (case, i + 1, t1 - t0, round(ru.ru_utime * 1e6),
                                                    round(ru.ru_stime * 1e6), ru.ru_maxrss,
                                                    p.returncode))
PYEOF

# ---- the cases -------------------------------------------------------------------------------
cases=()      # names, in table order
declare -A c_cmd c_runs c_warm c_prep c_ok

# add_case NAME RUNS WARMUP PREPARE OK_EXIT CMD...
add_case() {
  local name=$1 n=$2 w=$3 prep=$4 ok=$5; shift 5
  cases+=("$name")
  c_runs[$name]=$n; c_warm[$name]=$w; c_prep[$name]=$prep; c_ok[$name]=$ok
  c_cmd[$name]=$(printf '%q ' "$@")
}

ext=("$bin" resolve "$decl" --manager apt)
if [[ -n $conda_channel ]]; then
  [[ -r $conda_channel/noarch/repodata.json || -r $conda_channel/noarch/repodata.json.zst ]] ||
    die "no conda channel in $conda_channel (bench/gen-conda-channel.py DIR writes one)"
  conda_channel=$(cd "$conda_channel" && pwd)
  decl="$repo/bench/conda-ten-deps"
  # The generated channel is linux-64; CONDA_SUBDIR makes that the machine's subdir everywhere.
  # Exported, not an `env` prefix: --profile runs callgrind on extdeps itself.
  export CONDA_SUBDIR=linux-64
  ext=("$bin" resolve "$decl" --manager conda --channel "file://$conda_channel")
  do_rosdep=0
  do_apt=0
fi
if [[ -n $pypi_index ]]; then
  [[ -d $pypi_index/simple ]] || die "no index in $pypi_index (bench/gen-pypi-index.py DIR writes one)"
  [[ -x /usr/bin/python3 ]] || die "/usr/bin/python3 is the target interpreter of the pypi benchmark"
  # The index server lives as long as this script.
  coproc PYPI_SERVER { exec /usr/bin/python3 "$repo/bench/pypi-index-server.py" "$pypi_index"; }
  trap 'kill "$PYPI_SERVER_PID" 2>/dev/null' EXIT
  read -r pypi_port <&"${PYPI_SERVER[0]}"
  [[ $pypi_port =~ ^[0-9]+$ ]] || die "the index server did not start"
  decl="$repo/bench/pypi-cuda"
  # A driver supporting CUDA 12.4 is assumed: the plan is for a GPU machine.
  export EXTDEPS_OVERRIDE_CUDA=12.4  # exported, not `env ...`: --profile runs callgrind on extdeps itself
  ext=("$bin" resolve "$decl" --manager pypi --python /usr/bin/python3
       --index-url "http://127.0.0.1:$pypi_port/simple/")
  do_rosdep=0
  do_apt=0
fi
if [[ -n $pacman_dir ]]; then
  [[ -d $pacman_dir/root/var/lib/pacman/sync ]] || die "no Arch root in $pacman_dir (bench/gen-pacman-repo.py DIR writes one)"
  pacman_dir=$(cd "$pacman_dir" && pwd)
  decl="$repo/bench/pacman-ten-deps"
  ext=("$bin" resolve "$decl" --manager pacman --root "$pacman_dir/root")
  do_rosdep=0
  do_apt=0
  if [[ -z $profile ]] && command -v pacman >/dev/null && command -v jq >/dev/null; then
    mapfile -t pac_pkgs < <("${ext[@]}" --json --no-cache | jq -r '[.steps[].packages[].name] | unique[]')
    ((${#pac_pkgs[@]})) || die "extdeps --json planned no pacman package"
    r="$pacman_dir/root"
    add_case pacman-Sp "$runs" 1 "" 0 pacman --config "$r/etc/pacman.conf" --root "$r" --dbpath "$r/var/lib/pacman" \
      --cachedir "$work/pacman-cache" --logfile "$work/pacman.log" --gpgdir "$work/gnupg" --hookdir "$work/hooks" \
      -Sp --needed --print-format '%n %v' -- "${pac_pkgs[@]}"
  fi
fi
if [[ -n $homebrew_dir ]]; then
  [[ -r $homebrew_dir/formula.json ]] || die "no formula index in $homebrew_dir (bench/gen-homebrew-api.py DIR writes one)"
  homebrew_dir=$(cd "$homebrew_dir" && pwd)
  decl="$repo/bench/homebrew-ten-deps"
  # Exported rather than an `env` prefix, so that --profile runs callgrind on extdeps itself.
  export EXTDEPS_OVERRIDE_OS=macos:14.5 EXTDEPS_OVERRIDE_ARCH=arm64
  ext=("$bin" resolve "$decl" --manager brew --root "$homebrew_dir/root" --homebrew-api "$homebrew_dir/formula.json")
  do_rosdep=0
  do_apt=0
fi
if [[ -n $dnf_dir ]]; then
  [[ -r $dnf_dir/repo/repodata/repomd.xml ]] || die "no rpm-md repository in $dnf_dir (bench/gen-rpm-repo.py DIR writes one)"
  dnf_dir=$(cd "$dnf_dir" && pwd)
  decl="$repo/bench/dnf-ten-deps"
  ext=("$bin" resolve "$decl" --manager dnf --root "$dnf_dir/root")
  do_rosdep=0
  do_apt=0
  if [[ -z $profile ]] && command -v dnf >/dev/null && command -v rpm >/dev/null && command -v jq >/dev/null; then
    mapfile -t dnf_pkgs < <("${ext[@]}" --json --no-cache | jq -r '[.steps[].packages[].name] | unique[]')
    ((${#dnf_pkgs[@]})) || die "extdeps --json planned no dnf package"
    # An empty rpm database for dnf's root, and a HOME whose .rpmmacros points rpm at it.
    mkdir -p "$work/dnf-root" "$work/dnf-home"
    echo '%_dbpath /var/lib/rpm' >"$work/dnf-home/.rpmmacros"
    rpm --root "$work/dnf-root" --dbpath /var/lib/rpm --initdb
    dnf_cmd=(env "HOME=$work/dnf-home" dnf --installroot="$work/dnf-root" --setopt=reposdir="$dnf_dir/root/etc/yum.repos.d"
             --setopt=cachedir="$work/dnf-cache" --setopt=logdir=/var/log --releasever=41 --disablerepo='*' --enablerepo=bench)
    "${dnf_cmd[@]}" makecache >/dev/null 2>&1 || die "dnf makecache failed on $dnf_dir"
    # --assumeno: dnf resolves, shows the transaction and exits 1 without installing anything
    # (1 too when it cannot resolve: then there is no "Transaction Summary"); a small sh wrapper
    # (one fork more) makes a shown transaction the success the timing passes expect.
    printf '#!/bin/sh\nout=$("$@" 2>&1)\n[ $? -eq 1 ] || exit 1\ncase $out in *"Transaction Summary"*) exit 0 ;; esac\nexit 1\n' \
      >"$work/exit1.sh"
    add_case dnf-assumeno "$runs" 1 "" 0 sh "$work/exit1.sh" "${dnf_cmd[@]}" -C --assumeno install -- "${dnf_pkgs[@]}"
  fi
fi
cold_dir="$work/cache-cold"
warm_dir="$work/cache-warm"
add_case extdeps-cold "$cold_runs" 0 "rm -rf '$cold_dir'" 0 "${ext[@]}" --cache-dir "$cold_dir"
add_case extdeps-warm "$runs" 1 "" 0 "${ext[@]}" --cache-dir "$warm_dir"

if ((phases)); then profile=phases; fi  # no peers, no sanity runs of them
if ((do_rosdep)) && [[ -z $profile ]]; then
  command -v rosdep >/dev/null || die "rosdep is missing (apt-get install -y python3-rosdep2, or --no-rosdep)"
  [[ -r $rosdep_base ]] || die "no rosdep base file at $rosdep_base (--rosdep-base)"
  rosdep_base=$(cd "$(dirname "$rosdep_base")" && pwd)/$(basename "$rosdep_base")
  # Offline rosdep: one sources list naming the local YAML by file://, a rosdistro index that is a
  # local file with no distributions (Debian's python3-rosdistro still adds its own local
  # "debian" entry, file:///usr/share/python3-rosdistro/debian.yaml), and a private ROS_HOME.
  rd="$work/rosdep"
  mkdir -p "$rd/sources.list.d" "$rd/ws/bench_pkg"
  echo "yaml file://$rosdep_base" >"$rd/sources.list.d/10-local.list"
  printf '%%YAML 1.1\n---\ndistributions: {}\ntype: index\nversion: 4\n' >"$rd/index.yaml"
  {
    echo '<?xml version="1.0"?>'
    echo '<package format="3">'
    echo '  <name>bench_pkg</name><version>0.1.0</version><description>ten needs</description>'
    echo '  <maintainer email="bench@example.com">bench</maintainer><license>MIT</license>'
    for k in cmake ninja-build pkg-config; do echo "  <buildtool_depend>$k</buildtool_depend>"; done
    for k in zlib libxml2 libssl-dev libpng-dev libjpeg; do echo "  <depend>$k</depend>"; done
    echo '</package>'
  } >"$rd/ws/bench_pkg/package.xml"
  renv=(env -u ROS_DISTRO -u ROS_PYTHON_VERSION -u ROS_OS_OVERRIDE "ROSDEP_SOURCE_PATH=$rd/sources.list.d"
        "ROS_HOME=$rd/home" "ROSDISTRO_INDEX_URL=file://$rd/index.yaml" http_proxy=http://127.0.0.1:9
        https_proxy=http://127.0.0.1:9)
  # The proxies point nowhere: were rosdep to reach for the network, it would fail, not wait.
  add_case rosdep-update "$cold_runs" 0 "rm -rf '$rd/home'" 0 "${renv[@]}" rosdep update
  add_case rosdep-resolve "$runs" 1 "" 0 "${renv[@]}" rosdep resolve "${rosdep_keys[@]}"
  add_case rosdep-check "$runs" 1 "" 0 "${renv[@]}" rosdep check --from-paths "$rd/ws" --ignore-src
fi

if ((do_apt)) && [[ -z $profile ]]; then
  command -v jq >/dev/null || die "jq is needed to read extdeps --json (apt-get install -y jq, or --no-apt)"
  mapfile -t apt_pkgs < <("${ext[@]}" --json --no-cache | jq -r '[.requirements[].packages[]
      | select(.manager == "apt") | .name] | unique[]')
  ((${#apt_pkgs[@]})) || die "extdeps --json named no apt package"
  add_case apt-get-s "$runs" 1 "" 0 apt-get install -s --no-install-recommends "${apt_pkgs[@]}"
  # apt as configured may keep no binary cache (Docker images set Dir::Cache::pkgcache ""), and
  # then parses every list on every run. This case gives it a private binary cache, reused.
  add_case apt-get-s-cache "$runs" 1 "" 0 apt-get -o "Dir::Cache::pkgcache=$work/apt/pkgcache.bin" \
    -o "Dir::Cache::srcpkgcache=$work/apt/srcpkgcache.bin" install -s --no-install-recommends \
    "${apt_pkgs[@]}"
  mkdir -p "$work/apt"
fi

# ---- phases mode -----------------------------------------------------------------------------
if ((phases)); then
  dir="$work/cache-phases"
  rm -rf "$dir"
  "${ext[@]}" --cache-dir "$dir" >/dev/null || true
  for ((i = 0; i < runs; i++)); do
    EXTDEPS_TIMINGS=1 "${ext[@]}" --cache-dir "$dir" 2>&1 >/dev/null | grep '^extdeps: timing: ' || true
  done | "$py" -c '
import collections, statistics, sys
d = collections.OrderedDict()
for line in sys.stdin:
    f = line.split()
    d.setdefault(f[2], []).append(float(f[3]))
if not d:
    sys.exit("bench/run.sh: extdeps printed no timings")
print("== extdeps resolve, warm, median of %d runs per phase (EXTDEPS_TIMINGS)" % len(d["main"]))
for k, v in d.items():
    print("%-12s %8.3f ms" % (k, statistics.median(v)))
'
  exit 0
fi

# ---- profile mode ----------------------------------------------------------------------------
if [[ -n $profile ]]; then
  command -v valgrind >/dev/null || die "valgrind is missing (apt-get install -y valgrind)"
  profile_one() {  # profile_one warm|cold
    local kind=$1 dir="$work/cache-profile-$1" f="$out/callgrind.$1.out"
    rm -rf "$dir"
    if [[ $kind == warm ]]; then "${ext[@]}" --cache-dir "$dir" >/dev/null; fi
    if ! valgrind --tool=callgrind --callgrind-out-file="$f" "${ext[@]}" --cache-dir "$dir" \
      >"$work/profile-$kind.stdout" 2>"$work/profile-$kind.valgrind"; then
      echo "bench/run.sh: extdeps failed under callgrind; see $work/profile-$kind.valgrind" >&2
      exit 3
    fi
    local ir
    ir=$(grep -m1 '^totals:\|^summary:' "$f" | awk '{print $2}')
    echo "== extdeps resolve, $kind, under callgrind: $(printf "%'d" "$ir") instructions (Ir)"
    echo "   $f"
    echo
    # The function lines of callgrind_annotate, without recursion levels (name'2, which count
    # more than 100%), with parameter lists shortened to (...).
    annotate() {
      callgrind_annotate "$@" "$f" 2>/dev/null | awk '/^-+$/ {d++; next} d >= 3 && NF' |
        grep -v "PROGRAM TOTALS\|file:function\|^Ir *$\|'[0-9]" |
        perl -pe 's/\(anonymous namespace\)/{anon}/g; s/std::__cxx11::/std::/g;
                  s/(?<=[\w>])(\((?:[^()]++|(?1))*\))(?=(?: const)?\s*\[)/(...)/; s/^(.{180}).*/$1/'
    }
    echo "-- top $top by inclusive instructions"
    annotate --inclusive=yes | head -n "$top" || true  # head closes the pipe early: SIGPIPE
    echo
    echo "-- top 10 by own (exclusive) instructions"
    annotate --inclusive=no | head -n 10 || true
    echo
    printf 'profile\t%s\tIr\t%s\n' "$kind" "$ir" >>"$raw"
  }
  : >"$raw"
  echo "# load before: $(load)"
  case "$profile" in
    warm|cold) profile_one "$profile" ;;
    both) profile_one cold; profile_one warm ;;
  esac
  exit 0
fi

# What the caches are keyed on: should these change during the run (an apt-get install or update
# by someone else), a "warm" run may rebuild its cache and the figures mean less; we say so.
inputs() { stat -c '%n %s %Y' /var/lib/dpkg/status /var/lib/apt/lists/*_Packages* 2>/dev/null; }
inputs >"$work/inputs.before"

# ---- sanity: every command runs and says what we expect before any timing --------------------
# Warm cases run twice (the first fills the cache, the second reads it), cold ones once.
for name in "${cases[@]}"; do
  for ((i = 0; i <= c_warm[$name]; i++)); do
    if [[ -n ${c_prep[$name]} ]]; then bash -c "${c_prep[$name]}"; fi
    set +e
    bash -c "${c_cmd[$name]}" >"$work/$name.stdout" 2>"$work/$name.stderr"
    rc=$?
    set -e
    if [[ $rc != "${c_ok[$name]}" ]]; then
      echo "bench/run.sh: $name exited $rc (run $((i + 1)) of its check); the command:" >&2
      echo "  ${c_cmd[$name]}" >&2
      echo "its output is in $work/$name.{stdout,stderr}; the end of stderr:" >&2
      tail -n 20 "$work/$name.stderr" >&2
      exit 3
    fi
  done
done
if ((do_rosdep)); then
  # The cache the resolve and check cases read (the sanity run of rosdep-update made it).
  grep -q '^#apt' "$work/rosdep-resolve.stdout" || die "rosdep resolve gave no apt packages"
fi

# ---- timing ----------------------------------------------------------------------------------
hf=""
if ((use_hf)) && command -v hyperfine >/dev/null; then hf=$(command -v hyperfine); fi
{
  echo "# extdeps bench $(date -u +%FT%TZ) on $(uname -n), $(nproc) cores"
  echo "# extdeps: $bin ($("$bin" --version 2>/dev/null)), repository HEAD $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# apt lists: $(ls /var/lib/apt/lists/*_Packages* 2>/dev/null | wc -l) Packages files, $(du -sh /var/lib/apt/lists 2>/dev/null | cut -f1)"
  ((do_rosdep)) && echo "# rosdep $(rosdep --version 2>/dev/null), source $rosdep_base, keys: ${rosdep_keys[*]}"
  ((do_apt)) && echo "# apt-get -s packages: ${apt_pkgs[*]}"
  echo "# load before: $(load)"
  for name in "${cases[@]}"; do echo "# cmd $name: ${c_cmd[$name]}"; done
  printf 'case\trun\twall_ns\tuser_us\tsys_us\tmaxrss_kib\texit\tsource\n'
} >"$raw"

echo "load before: $(load) ($(nproc) cores); raw numbers: $raw"
for name in "${cases[@]}"; do
  n=${c_runs[$name]} w=${c_warm[$name]} prep=${c_prep[$name]}
  printf '  %-15s %3d runs%s ...\n' "$name" "$n" "$([[ $w -gt 0 ]] && echo ", $w discarded")"
  if [[ -n $hf ]]; then
    hargs=(--style none -N --runs "$n" --export-json "$work/$name.hyperfine.json")
    ((w > 0)) && hargs+=(--warmup "$w")
    [[ -n $prep ]] && hargs+=(--prepare "bash -c \"$prep\"")
    if ! "$hf" "${hargs[@]}" "${c_cmd[$name]}" >/dev/null 2>"$work/$name.hyperfine.log"; then
      echo "bench/run.sh: hyperfine failed on $name:" >&2
      tail -n 5 "$work/$name.hyperfine.log" >&2
      exit 3
    fi
  fi
  # The resource pass: CPU time and peak RSS per run (and wall, used when hyperfine is absent).
  "$py" "$work/measure.py" "$name" "$n" "$w" "$prep" "$work/$name.rusage.tsv" "${c_cmd[$name]}"
done
echo "load after:  $(load)"
echo "# load after: $(load)" >>"$raw"
inputs >"$work/inputs.after"
if ! cmp -s "$work/inputs.before" "$work/inputs.after"; then
  msg="dpkg status or apt lists changed during the run; warm figures may include cache rebuilds"
  echo "WARNING: $msg" >&2; echo "# WARNING: $msg" >>"$raw"
fi
nsolv=$(find "$warm_dir/solv" -name '*.solv' | wc -l)
if ((nsolv > 4)); then
  msg="extdeps' warm cache holds $nsolv .solv files (4 expected): it was rebuilt once or more"
  msg+=" (the discarded first run absorbs one rebuild; check the warm max)"
  echo "WARNING: $msg" >&2; echo "# WARNING: $msg" >>"$raw"
fi

# ---- the table -------------------------------------------------------------------------------
"$py" - "$raw" "$work" "$hf" "${cases[@]}" <<'PYEOF'
import json, os, statistics, sys
raw, work, hf, cases = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
rows = {}
with open(raw, 'a') as out:
    for c in cases:
        wall_hf = None
        if hf:
            with open(os.path.join(work, c + '.hyperfine.json')) as f:
                r = json.load(f)['results'][0]
            wall_hf = [t * 1e3 for t in r['times']]
            for i, (t, rc) in enumerate(zip(r['times'], r['exit_codes'])):
                out.write('%s\t%d\t%d\t\t\t\t%d\thyperfine\n' % (c, i + 1, round(t * 1e9), rc))
        wall, cpu, rss, bad = [], [], [], 0
        with open(os.path.join(work, c + '.rusage.tsv')) as f:
            for line in f:
                name, run, w, u, s, m, rc = line.split('\t')
                out.write('%s\t%s\t%s\t%s\t%s\t%s\t%s\trusage\n' % (name, run, w, u, s, m, rc.strip()))
                wall.append(int(w) / 1e6); cpu.append((int(u) + int(s)) / 1e3); rss.append(int(m))
                bad += rc.strip() != '0'
        rows[c] = dict(wall=wall_hf or wall, wall_src='hyperfine' if wall_hf else 'wait4',
                       wall2=wall, cpu=cpu, rss=rss, bad=bad)

def fmt(v):
    return '%.1f' % v if v < 100 else '%.0f' % v
def mmm(v):
    return '%8s %8s %8s' % (fmt(statistics.median(v)), fmt(min(v)), fmt(max(v)))

print()
print('%-15s %4s | %-26s | %-26s | %-17s' % ('', '', 'wall ms', 'CPU ms (user+sys)', 'peak RSS MiB'))
print('%-15s %4s | %8s %8s %8s | %8s %8s %8s | %8s %8s' % ('case', 'N', 'median', 'min', 'max',
      'median', 'min', 'max', 'median', 'max'))
for c in cases:
    r = rows[c]
    rss = [m / 1024 for m in r['rss']]
    print('%-15s %4d | %s | %s | %8.1f %8.1f%s' % (c, len(r['wall']), mmm(r['wall']), mmm(r['cpu']),
          statistics.median(rss), max(rss), '  (%d runs failed!)' % r['bad'] if r['bad'] else ''))
if hf:
    print('(wall: hyperfine; CPU and RSS: wait4 rusage of a second pass, whose wall medians were %s)'
          % ', '.join('%s %s' % (c, fmt(statistics.median(rows[c]['wall2']))) for c in cases))
else:
    print('(wall: monotonic clock around fork+exec+wait; CPU and RSS: wait4 rusage, same runs)')

def med(c, k):
    return statistics.median(rows[c][k])
pairs = [('rosdep-resolve', 'extdeps-warm'), ('rosdep-check', 'extdeps-warm'),
         ('apt-get-s', 'extdeps-warm'), ('apt-get-s-cache', 'extdeps-warm'),
         ('extdeps-cold', 'extdeps-warm'),
         ('rosdep-update', 'extdeps-cold'), ('rosdep-resolve', 'extdeps-cold'),
         ('rosdep-check', 'extdeps-cold'), ('apt-get-s', 'extdeps-cold')]
print()
print('ratios of medians          wall     CPU')
for a, b in pairs:
    if a in rows and b in rows:
        print('  %-24s %6.2fx %6.2fx' % (a + ' / ' + b.replace('extdeps-', ''),
              med(a, 'wall') / med(b, 'wall'), med(a, 'cpu') / med(b, 'cpu')))
PYEOF
echo
echo "raw numbers: $raw   (outputs of each command: $work/*.stdout)"
