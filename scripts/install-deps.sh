#!/usr/bin/env bash
# Installs everything extdeps needs to build and test on Debian bookworm (or a derivative), from
# Debian's own packages. Runs as root, or through sudo for a user who has it.
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
  python3-setuptools python3-pip python3-wheel python3-dev libxml2-dev libssl-dev \
  nix-bin pacman-package-manager libarchive-tools rpm createrepo-c dnf \
  jq brotli gnuplot-nox
