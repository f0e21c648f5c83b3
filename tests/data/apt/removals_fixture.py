#!/usr/bin/env python3
"""Writes tests/data/apt/removals/: a need whose package conflicts with an installed one, as on this
machine: libhts-dev depends on libcurl4-gnutls-dev, which conflicts with the installed
libcurl4-openssl-dev (`apt-get install -s libhts-dev` removes it).

Lists: the dependency closure of libhts-dev and libcurl4-openssl-dev in this machine's bookworm main
list (run_guess_fixture.write_fixture), and the stanzas of the same names in its bookworm-security
and bookworm-updates lists, byte for byte. dpkg status: this machine's `install ok installed`
stanzas of libcurl4-openssl-dev, of every name of those lists that is installed here, and of their
installed dependency closure. Run from the repository root on a Debian 12 machine with
libcurl4-openssl-dev installed and current lists; see tests/data/apt/README.md.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_guess_fixture  # noqa: E402

OUT = "tests/data/apt/removals"
LISTS = "/var/lib/apt/lists/"
OTHERS = ["deb.debian.org_debian-security_dists_bookworm-security_main_binary-amd64_Packages.lz4",
          "deb.debian.org_debian_dists_bookworm-updates_main_binary-amd64_Packages.lz4"]


def stanzas(text):
    out = {}
    for stanza in text.split("\n\n"):
        m = re.search(r"^Package: (\S+)$", stanza, re.M)
        if m:
            out.setdefault(m.group(1), []).append(stanza.strip("\n") + "\n")
    return out


def names_in(field_text):
    return [a.strip().split()[0].split(":")[0] for alt in field_text.split(",") for a in alt.split("|")]


def main():
    kept, seen = run_guess_fixture.write_fixture(OUT, set(), ["libhts-dev", "libcurl4-openssl-dev"])
    names = {re.search(r"^Package: (\S+)$", s, re.M).group(1) for s in kept}
    lists = os.path.join(OUT, "var/lib/apt/lists")
    for name in OTHERS:
        text = subprocess.run(["lz4", "-dc", LISTS + name], check=True, capture_output=True).stdout.decode()
        by = stanzas(text)
        keep = [s for n in sorted(names) for s in by.get(n, [])]
        path = os.path.join(lists, name[: -len(".lz4")])
        with open(path, "w") as f:
            f.write("\n".join(keep))
        subprocess.run(["lz4", "-9", "-f", "--rm", "-q", path, path + ".lz4"], check=True)
    status = {}
    for n, ss in stanzas(open("/var/lib/dpkg/status").read()).items():
        for s in ss:
            if re.search(r"^Status: install ok installed$", s, re.M):
                status[n] = s
    todo = ["libcurl4-openssl-dev"] + sorted(n for n in names if n in status)
    provider = {}
    for n, s in status.items():
        m = re.search(r"^Provides: (.*)$", s, re.M)
        for p in names_in(m.group(1)) if m else []:
            provider.setdefault(p, n)
    done = set()
    while todo:
        n = todo.pop()
        if n in done or (n not in status and n not in provider):
            continue
        n = n if n in status else provider[n]
        if n in done:
            continue
        done.add(n)
        for field in ("Pre-Depends", "Depends"):
            m = re.search(r"^%s: (.*)$" % field, status[n], re.M)
            todo.extend(names_in(m.group(1)) if m else [])
    with open(os.path.join(OUT, "var/lib/dpkg/status"), "w") as f:
        f.write("\n".join(status[n] for n in sorted(done)))
    print(f"{len(kept)} main stanzas, {len(done)} installed")


if __name__ == "__main__":
    main()
