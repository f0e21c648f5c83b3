#!/usr/bin/env python3
"""Rebuilds the trimmed real indexes of tests/data/mapping/indexes/ from Debian's own lists.

usage: trim_indexes.py BOOKWORM_NON_FREE TRIXIE_MAIN TRIXIE_NON_FREE
  (the decompressed dists/<suite>/<component>/binary-amd64/Packages of deb.debian.org)

Whole stanzas are copied byte for byte; only the choice is ours:
- bookworm non-free: every package mappings/debian.toml names in a non-free alternative;
- trixie main and non-free: every package debian.toml names once its [id.release.trixie] tables
  are applied (what `extdeps mappings verify --release trixie` checks).
Run from the repository root.
"""
import lzma
import re
import sys
import tomllib

OUT = "tests/data/mapping/indexes/"
CATEGORIES = ("build", "host", "run")


def stanzas(path):
    with open(path, encoding="utf-8") as f:
        return [s + "\n" for s in f.read().split("\n\n") if s.strip()]


def name(stanza):
    return re.search(r"^Package: (\S+)", stanza, re.M).group(1)


def names(table_part):
    return {p for c in CATEGORIES for p in table_part.get(c, [])}


def trixie_names(e):
    """The entry's packages as selected for trixie (schema/mapping.md, per-release differences)."""
    r = e.get("release", {}).get("trixie")
    if r is None:
        return {p for a in e.get("alternative", [e]) for p in names(a)}
    if "alternative" in r:
        return {p for a in r["alternative"] for p in names(a)}
    if any(c in r and not r[c] for c in CATEGORIES):  # an empty list: nothing on trixie
        return set()
    merged = {c: r.get(c, e.get(c, [])) for c in CATEGORIES}
    return names(merged)


def main():
    non_free, trixie_main, trixie_non_free = sys.argv[1:4]
    table = tomllib.load(open("mappings/debian.toml", "rb"))
    want_non_free, want_trixie = set(), set()
    for e in table["id"]:
        for a in e.get("alternative", [e]):
            if a.get("component", e.get("component", "main")) == "non-free":
                want_non_free |= names(a)
        want_trixie |= trixie_names(e)
    jobs = [([non_free], want_non_free, "bookworm-non-free_binary-amd64_Packages.xz"),
            ([trixie_main, trixie_non_free], want_trixie, "trixie-main-non-free_binary-amd64_Packages.xz")]
    for paths, want, out in jobs:
        kept = [s for p in paths for s in stanzas(p) if name(s) in want]
        missing = want - {name(s) for s in kept}
        with lzma.open(OUT + out, "wt", encoding="utf-8", preset=9 | lzma.PRESET_EXTREME) as f:
            f.write("\n".join(kept))
        print(out, len(kept), "stanzas", "missing: " + " ".join(sorted(missing)) if missing else "")


if __name__ == "__main__":
    main()
