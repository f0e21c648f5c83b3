#!/usr/bin/env python3
"""Rebuilds the two trimmed real indexes of tests/data/mapping/indexes/ from Debian's own lists.

usage: trim_indexes.py BOOKWORM_NON_FREE_PACKAGES TRIXIE_MAIN_PACKAGES
  (the decompressed dists/bookworm/non-free/binary-amd64/Packages and
   dists/trixie/main/binary-amd64/Packages of deb.debian.org)

Whole stanzas are copied byte for byte; only the choice is ours: every package that
mappings/debian.toml names in a non-free alternative (for the first file), and every package of
its [id.release.trixie] tables (for the second). Run from the repository root.
"""
import lzma
import re
import sys
import tomllib

OUT = "tests/data/mapping/indexes/"


def stanzas(path):
    with open(path, encoding="utf-8") as f:
        return [s + "\n" for s in f.read().split("\n\n") if s.strip()]


def name(stanza):
    return re.search(r"^Package: (\S+)", stanza, re.M).group(1)


def lists(d):
    for c in ("build", "host", "run"):
        yield from d.get(c, [])


def main():
    non_free, trixie = sys.argv[1:3]
    table = tomllib.load(open("mappings/debian.toml", "rb"))
    want_non_free, want_trixie = set(), set()
    for e in table["id"]:
        for a in e.get("alternative", [e]):
            if a.get("component", e.get("component", "main")) == "non-free":
                want_non_free.update(lists(a))
        for r in e.get("release", {}).get("trixie", {}) and [e["release"]["trixie"]] or []:
            for a in r.get("alternative", [r]):
                want_trixie.update(lists(a))
    for path, want, out in [(non_free, want_non_free, "bookworm-non-free_binary-amd64_Packages.xz"),
                            (trixie, want_trixie, "trixie-main_binary-amd64_Packages.xz")]:
        kept = [s for s in stanzas(path) if name(s) in want]
        missing = want - {name(s) for s in kept}
        with lzma.open(OUT + out, "wt", encoding="utf-8") as f:
            f.write("\n".join(kept))
        print(out, len(kept), "stanzas", "missing: " + " ".join(sorted(missing)) if missing else "")


if __name__ == "__main__":
    main()
