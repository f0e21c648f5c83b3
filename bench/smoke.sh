#!/usr/bin/env bash
# bench/smoke.sh: runs every generator and benchmark script of bench/ once, at a small size, so a
# benchmark that stops working breaks CI the day it breaks (.ci/run calls this). Nothing is
# timed here and no figure is checked: each script's own checks must pass (the generators check
# what they write, run.sh and nix-index.sh check the plan before they time anything).
#
#   bench/smoke.sh [EXTDEPS_BIN]        (default: build/extdeps)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$repo/build/extdeps}
[[ -x $bin ]] || { echo "bench/smoke.sh: no extdeps binary at $bin" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d /tmp/extdeps-bench-smoke.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
step() { echo "== bench smoke: $*"; }

step "gen-conda-channel.py (5,000 records), --check, run.sh --conda"
python3 "$repo/bench/gen-conda-channel.py" "$tmp/conda" --records 5000 --zst >/dev/null
python3 "$repo/bench/gen-conda-channel.py" --check "$tmp/conda"
"$repo/bench/run.sh" --conda "$tmp/conda" -n 1 -c 1 --no-hyperfine -x "$bin" -o "$tmp/conda-out"

step "gen-pypi-index.py, pypi-index-server.py, run.sh --pypi"
python3 "$repo/bench/gen-pypi-index.py" "$tmp/pypi" >/dev/null
"$repo/bench/run.sh" --pypi "$tmp/pypi" -n 1 -c 1 --no-hyperfine -x "$bin" -o "$tmp/pypi-out"

step "gen-nix-index.py (2,000 attributes), nix-index.sh"
mkdir -p "$tmp/nix"
python3 "$repo/bench/gen-nix-index.py" "$tmp/nix/packages.json" --attributes 2000 >/dev/null
brotli -q 5 -f -o "$tmp/nix/packages.json.br" "$tmp/nix/packages.json"
"$repo/bench/nix-index.sh" -n 1 -c 1 -i "$tmp/nix/packages.json.br" -x "$bin" -o "$tmp/nix-out"

step "gen-pacman-repo.py (2,000 packages), run.sh --pacman"
python3 "$repo/bench/gen-pacman-repo.py" "$tmp/pacman" --packages 2000 >/dev/null
"$repo/bench/run.sh" --pacman "$tmp/pacman" -n 1 -c 1 --no-hyperfine -x "$bin" -o "$tmp/pacman-out"

step "gen-rpm-repo.py (2,000 packages), run.sh --dnf"
python3 "$repo/bench/gen-rpm-repo.py" "$tmp/dnf" --packages 2000 >/dev/null
"$repo/bench/run.sh" --dnf "$tmp/dnf" -n 1 -c 1 --no-hyperfine -x "$bin" -o "$tmp/dnf-out"

step "gen-homebrew-api.py (2,000 formulae), run.sh --homebrew"
python3 "$repo/bench/gen-homebrew-api.py" "$tmp/homebrew" --formulae 2000 >/dev/null
"$repo/bench/run.sh" --homebrew "$tmp/homebrew" -n 1 -c 1 --no-hyperfine -x "$bin" -o "$tmp/homebrew-out"

if [[ -d /var/lib/apt/lists ]] && compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null; then
  step "run.sh (ten needs against this machine's apt lists, rosdep and apt-get -s beside)"
  rosdep=()
  if [[ ! -f $repo/../shared/data/rosdep/base.yaml ]] || ! command -v rosdep >/dev/null; then
    echo "(no ../shared/data/rosdep/base.yaml or no rosdep: the rosdep cases are left out)"
    rosdep=(--no-rosdep)
  fi
  "$repo/bench/run.sh" -n 1 -c 1 --no-hyperfine "${rosdep[@]}" -x "$bin" -o "$tmp/apt-out"
  step "run.sh --phases (EXTDEPS_TIMINGS), growth.py (5 and 20 needs; a 2,000-record channel; the plot)"
  "$repo/bench/run.sh" --phases -n 2 -x "$bin" -o "$tmp/phases-out"
  python3 "$repo/bench/growth.py" -x "$bin" -o "$tmp/growth" --needs 5,20 --records 2000 -n 1 -c 1
  [[ -s $tmp/growth/growth.png ]] || { echo "bench/smoke.sh: growth.py drew no plot" >&2; exit 1; }
else
  step "run.sh skipped: this machine has no apt lists (run apt-get update)"
fi
echo "bench smoke: every generator and benchmark script ran"
