#!/usr/bin/env python3
"""Rebuilds tests/data/apt/bookworm/ from this machine's apt lists and dpkg database.

Whole stanzas are copied byte for byte; only the choice of stanzas is ours: the dependency
closure (first alternative that names a real package, else its first provider) of the roots
below, taken from each list that carries them. Run from the repository root on a Debian 12
machine whose lists are current; see tests/data/apt/README.md.
"""
import gzip
import lzma
import os
import re
import subprocess
import sys

ROOTS = ["libxml2-dev", "zlib1g-dev", "libssl-dev", "gcc", "g++", "build-essential", "make",
         "mawk", "python3", "pkgconf", "libnl-3-200"]
LISTS = "/var/lib/apt/lists"
MAIN = "deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages"
SECURITY = "deb.debian.org_debian-security_dists_bookworm-security_main_binary-amd64_Packages"
UPDATES = "deb.debian.org_debian_dists_bookworm-updates_main_binary-amd64_Packages"
OUT = "tests/data/apt/bookworm"


def lz4_text(path):
    return subprocess.run(["lz4", "-dc", path], check=True, capture_output=True).stdout.decode()


def stanzas(text):
    return [s + "\n" for s in text.split("\n\n") if s.strip()]


def field(stanza, name):
    m = re.search(r"^" + re.escape(name) + r": ?(.*(?:\n[ \t].*)*)", stanza, re.M)
    return m.group(1).replace("\n", " ") if m else ""


def closure(main):
    by_name, providers = {}, {}
    for s in main:
        n = field(s, "Package")
        by_name.setdefault(n, s)
        for p in filter(None, (x.strip().split(" ")[0] for x in field(s, "Provides").split(","))):
            providers.setdefault(p, n)
    seen, todo = set(), list(ROOTS)
    while todo:
        n = todo.pop()
        if n in seen or n not in by_name:
            continue
        seen.add(n)
        deps = field(by_name[n], "Pre-Depends") + "," + field(by_name[n], "Depends")
        for group in filter(None, (g.strip() for g in deps.split(","))):
            for alt in group.split("|"):
                name = alt.strip().split(" ")[0].split(":")[0]
                if name in by_name:
                    todo.append(name)
                    break
                if name in providers:
                    todo.append(providers[name])
                    break
    return seen


def main():
    main_list = stanzas(lz4_text(f"{LISTS}/{MAIN}.lz4"))
    keep = closure(main_list)
    lists = f"{OUT}/var/lib/apt/lists"
    os.makedirs(lists, exist_ok=True)
    picked = "".join(s + "\n" for s in main_list if field(s, "Package") in keep)
    subprocess.run(["lz4", "-q", "-z", "-9", "-f", "-", f"{lists}/{MAIN}.lz4"], input=picked.encode(), check=True)
    security = [s for s in stanzas(lz4_text(f"{LISTS}/{SECURITY}.lz4")) if field(s, "Package") in keep]
    with lzma.open(f"{lists}/{SECURITY}.xz", "wb") as f:
        f.write("".join(s + "\n" for s in security).encode())
    updates = [s for s in stanzas(lz4_text(f"{LISTS}/{UPDATES}.lz4")) if field(s, "Package") in keep]
    with gzip.GzipFile(f"{lists}/{UPDATES}.gz", "wb", mtime=0) as f:
        f.write("".join(s + "\n" for s in updates).encode())
    status = stanzas(open("/var/lib/dpkg/status").read())
    installed = [s for s in status if field(s, "Package") in keep]
    # A real "deinstall ok config-files" stanza: see README.md (dpkg -i then -r in a scratch root).
    extra = open(sys.argv[1]).read() if len(sys.argv) > 1 else ""
    os.makedirs(f"{OUT}/var/lib/dpkg", exist_ok=True)
    with open(f"{OUT}/var/lib/dpkg/status", "w") as f:
        f.write("\n".join(installed + ([extra] if extra else [])))
    os.makedirs(f"{OUT}/etc", exist_ok=True)
    with open("/etc/os-release") as src, open(f"{OUT}/etc/os-release", "w") as dst:
        dst.write(src.read())
    print(len(keep), "packages;", len(security), "security;", len(updates), "updates;", len(installed), "installed")


if __name__ == "__main__":
    main()
