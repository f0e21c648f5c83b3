#!/usr/bin/env python3
"""Writes tests/data/apt/run-guess/: every binary package of a few source packages whose run need
is guessed (no table maps them), copied byte for byte from this machine's bookworm main list.

Each source builds a -dev package, a shared library it depends on, and packages a run need must
not take (-doc, -bin, -tools, gir1.2-*, side libraries). Also kept: the dependency closure of the
shared libraries (Pre-Depends and Depends; the first alternative that names a real package, else
that name's first provider), so that each can be planned. Run from the repository root on a
Debian 12 machine whose lists are current; see tests/data/apt/README.md.
"""
import os
import re
import shutil
import subprocess

SOURCES = ["cglm", "cogl", "chmlib", "aalib", "blitz++", "allegro4.4", "babl", "cmph", "calcium"]
# The shared library each -dev package of those sources depends on (apt-cache show NAME-dev).
LIBRARIES = ["libcglm0", "libcogl20", "libchm1", "libaa1", "libblitz0v5", "liballegro4.4", "libbabl-0.1-0",
             "libcmph0", "libcalcium0"]
MAIN = "/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4"
OUT = "tests/data/apt/run-guess"


def read_main_list():
    """This machine's bookworm main list: each stanza by name, its source, the first provider of each name."""
    text = subprocess.run(["lz4", "-dc", MAIN], check=True, capture_output=True).stdout.decode()
    by_name, source, provider, order = {}, {}, {}, []
    for stanza in text.split("\n\n"):
        package = re.search(r"^Package: (\S+)$", stanza, re.M)
        if not package:
            continue
        name = package.group(1)
        by_name[name] = stanza.strip("\n") + "\n"
        order.append(name)
        src = re.search(r"^Source: (\S+)", stanza, re.M)
        source[name] = src.group(1) if src else name
        provides = re.search(r"^Provides: (.*)$", stanza, re.M)
        for p in provides.group(1).split(",") if provides else []:
            provider.setdefault(p.strip().split()[0], name)
    return by_name, source, provider, order


def write_fixture(out, wanted, roots):
    """Writes a fixture root at `out`: the stanzas of `wanted` and the dependency closure of `roots`
    (Pre-Depends and Depends; the first alternative that names a real package, else that name's
    first provider), in the list's order; an empty dpkg status; bookworm/'s os-release."""
    by_name, _, provider, order = read_main_list()
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in by_name:
            if name in provider:
                todo.append(provider[name])
            continue
        seen.add(name)
        for field in ("Pre-Depends", "Depends"):
            m = re.search(r"^%s: (.*)$" % field, by_name[name], re.M)
            for alternatives in m.group(1).split(",") if m else []:
                names = [a.strip().split()[0] for a in alternatives.split("|")]
                todo.append(next((n for n in names if n in by_name), names[0]))
    kept = [by_name[n] for n in order if n in wanted or n in seen]
    lists = os.path.join(out, "var/lib/apt/lists")
    os.makedirs(lists, exist_ok=True)
    os.makedirs(os.path.join(out, "var/lib/dpkg"), exist_ok=True)
    os.makedirs(os.path.join(out, "etc"), exist_ok=True)
    name = os.path.join(lists, os.path.basename(MAIN)[: -len(".lz4")])
    with open(name, "w") as f:
        f.write("\n".join(kept))
    subprocess.run(["lz4", "-9", "-f", "--rm", "-q", name, name + ".lz4"], check=True)
    open(os.path.join(out, "var/lib/dpkg/status"), "w").close()  # nothing installed
    shutil.copy("tests/data/apt/bookworm/etc/os-release", os.path.join(out, "etc/os-release"))
    return kept, seen


def main():
    _, source, _, order = read_main_list()
    wanted = {n for n in order if source[n] in SOURCES}
    kept, seen = write_fixture(OUT, wanted, LIBRARIES)
    print(f"{len(kept)} stanzas: {len(wanted)} of {len(SOURCES)} sources, {len(seen)} in the libraries' closure")


if __name__ == "__main__":
    main()
