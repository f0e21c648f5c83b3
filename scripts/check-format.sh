#!/usr/bin/env bash
# Checks that every C++ source of extdeps (core/, providers/, tests/ but tests/data/) is laid out
# as .clang-format says; --fix lays them out. clang-format 14 (Debian bookworm's `clang-format`)
# is the judge: another release may break lines differently.
#   scripts/check-format.sh [--fix]
# Exit 0: all laid out; 1: some file is not (each named, with the first differences); 2: no
# clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
fix=0
[ "${1:-}" = "--fix" ] && fix=1
if ! command -v clang-format >/dev/null; then
  echo "error: clang-format is not installed (apt-get install clang-format)" >&2
  exit 2
fi
version=$(clang-format --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[ "$version" = 14 ] || echo "warning: clang-format $version here; CI checks with 14" >&2
mapfile -t files < <(find core providers tests \( -path tests/data -prune \) -o -type f \( -name '*.cc' -o -name '*.h' \) -print | LC_ALL=C sort)
if [ $fix -eq 1 ]; then
  clang-format -i "${files[@]}"
  echo "laid out ${#files[@]} files"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format "$f" | cmp -s - "$f"; then
    echo "not laid out as .clang-format says: $f" >&2
    clang-format "$f" | diff -u "$f" - | sed -n '3,20p' >&2 || true
    bad=$((bad + 1))
  fi
done
if [ $bad -ne 0 ]; then
  echo "error: $bad of ${#files[@]} files differ from .clang-format's layout (scripts/check-format.sh --fix)" >&2
  exit 1
fi
echo "${#files[@]} files laid out as .clang-format says"
