#!/usr/bin/env bash
# Installs everything extdeps needs to build and test on Debian bookworm (or a derivative), from
# Debian's own packages, by name (nothing comes in as a Recommends: a fresh machine has only what
# is listed here). Runs as root, or through sudo for a user who has it. Then checks that every
# program the tests run is there, so a package that stops providing one fails here, not in a test.
set -euo pipefail
if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends \
  g++ cmake ninja-build pkgconf git ca-certificates \
  libsolv-dev libsolvext-dev libtomlplusplus-dev libpkgconf-dev libcurl4-openssl-dev \
  nlohmann-json3-dev libcli11-dev liblz4-dev libzstd-dev liblzma-dev zlib1g-dev libbz2-dev libgtest-dev \
  libbrotli-dev libyaml-cpp-dev libre2-dev \
  python3 python3-packaging python3-jsonschema python3-rosdep2 lz4 xz-utils zstd gzip dpkg-dev \
  python3-setuptools python3-pip python3-wheel python3-dev python3-venv libxml2-dev libssl-dev \
  nix-bin pacman-package-manager makepkg libarchive-tools rpm createrepo-c dnf \
  jq brotli gnuplot-nox pypy3 twine python3-build \
  libpng-dev libjpeg-dev pkg-config \
  patchelf binutils python3-setuptools-whl python3-wheel-whl zsh fish groff-base

# (patchelf, binutils: the extdeps wheel (setup.py, scripts/wheel_policy.py); the two -whl
# packages put setuptools and wheel in /usr/share/python-wheels, where pip's isolated builds find
# them offline.)
# (zsh, fish: tests/cli/completion_test.cc runs `extdeps completion`'s scripts in the real shells;
# groff-base: tests/cli/manual_test.cc renders `extdeps manual` with groff and fails on a warning.)
# (libpng-dev, libjpeg-dev and pkg-config, the name rosdep's table gives beside pkgconf: with the
# packages above they meet the ten needs of bench/run.sh's apt case, as its `rosdep check` case
# expects; a fresh machine has none of the three.)

# The programs the tests and bench/smoke.sh run, with the package that has each (makepkg holds
# vercmp and the compress.sh that repo-add sources; pacman-package-manager only recommends it).
missing=()
while read -r program package; do
  command -v "$program" >/dev/null 2>&1 || missing+=("$program ($package)")
done <<'EOF_TOOLS'
cc g++
c++ g++
cmake cmake
ninja ninja-build
pkg-config pkgconf
git git
python3 python3
dpkg-query dpkg
dpkg-architecture dpkg-dev
apt-cache apt
rosdep python3-rosdep2
bsdtar libarchive-tools
pacman pacman-package-manager
repo-add pacman-package-manager
vercmp makepkg
rpm rpm
rpmbuild rpm
createrepo_c createrepo-c
dnf dnf
nix-env nix-bin
nix-instantiate nix-bin
lz4 lz4
xz xz-utils
zstd zstd
gzip gzip
brotli brotli
jq jq
gnuplot gnuplot-nox
pypy3 pypy3
zsh zsh
fish fish
groff groff-base
twine twine
patchelf patchelf
readelf binutils
strip binutils
EOF_TOOLS
if [ -f /usr/share/makepkg/util/compress.sh ]; then :; else missing+=("/usr/share/makepkg/util/compress.sh (makepkg)"); fi
for w in setuptools wheel; do
  compgen -G "/usr/share/python-wheels/$w-*.whl" >/dev/null || missing+=("/usr/share/python-wheels/$w-*.whl (python3-$w-whl)")
done
for module in packaging jsonschema rosdep2 setuptools wheel ensurepip tomllib build; do
  /usr/bin/python3 -c "import $module" 2>/dev/null || missing+=("/usr/bin/python3 module $module")
done
if [ ${#missing[@]} -gt 0 ]; then
  printf 'install-deps.sh: installed, but still missing: %s\n' "${missing[@]}" >&2
  exit 1
fi
