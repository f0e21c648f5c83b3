#!/usr/bin/env python3
"""Writes a Fedora-like root for bench/run.sh --dnf: DIR/root/etc/os-release (Fedora 41),
DIR/root/etc/yum.repos.d/bench.repo naming DIR/repo by file://, and DIR/repo/repodata with
repomd.xml and a gzip'd primary.xml in createrepo_c's format (rpm-md, as createrepo_c 0.17 writes
it): the packages the ten needs of bench/dnf-ten-deps map to (mappings/fedora.toml), with the
relations, pkgconfig() provides and file provides Fedora gives them, and N generated packages
(default 50,000) in families of 40 whose members require each other and the base system
(versioned requires with epochs and releases, soname provides, rich `or` requires, conflicts,
obsoletes, noarch packages). Fixed seed. No rpm database: the benchmark plans for an empty root.

Usage: bench/gen-rpm-repo.py DIR [--packages N]
"""
import argparse
import gzip
import hashlib
import os
import random
from xml.sax.saxutils import escape, quoteattr

# name: (epoch, version, release, arch, [requires], [provides], [files])
CORE = {
    "glibc": ("0", "2.40", "9.fc41", "x86_64", [], ["libc.so.6()(64bit)"], []),
    "bash": ("0", "5.2.32", "1.fc41", "x86_64", ["glibc"], [], ["/bin/sh", "/usr/bin/bash"]),
    "zlib-ng-compat": ("0", "2.1.7", "3.fc41", "x86_64", ["glibc"], ["zlib = 1.3.1"], []),
    "zlib-ng-compat-devel": ("0", "2.1.7", "3.fc41", "x86_64", ["zlib-ng-compat = 2.1.7-3.fc41"],
                             ["zlib-devel = 1.3.1", "pkgconfig(zlib) = 1.3.1"], []),
    "openssl-libs": ("1", "3.2.2", "9.fc41", "x86_64", ["glibc"], ["libssl.so.3()(64bit)"], []),
    "openssl": ("1", "3.2.2", "9.fc41", "x86_64", ["openssl-libs = 1:3.2.2-9.fc41"], [], ["/usr/bin/openssl"]),
    "openssl-devel": ("1", "3.2.2", "9.fc41", "x86_64", ["openssl-libs = 1:3.2.2-9.fc41", "pkgconfig(zlib)"],
                      ["pkgconfig(openssl) = 3.2.2"], []),
    "libpng": ("2", "1.6.40", "4.fc41", "x86_64", ["zlib-ng-compat"], [], []),
    "libpng-devel": ("2", "1.6.40", "4.fc41", "x86_64", ["libpng = 2:1.6.40-4.fc41", "zlib-devel"],
                     ["pkgconfig(libpng) = 1.6.40"], []),
    "libjpeg-turbo": ("0", "3.0.2", "3.fc41", "x86_64", ["glibc"], [], []),
    "libjpeg-turbo-devel": ("0", "3.0.2", "3.fc41", "x86_64", ["libjpeg-turbo = 3.0.2-3.fc41"], ["libjpeg-devel = 6b"], []),
    "icu": ("0", "74.2", "2.fc41", "x86_64", ["glibc"], ["libicuuc.so.74()(64bit)"], []),
    "libxml2": ("0", "2.12.8", "2.fc41", "x86_64", ["zlib-ng-compat", "libicuuc.so.74()(64bit)"], [], ["/usr/bin/xmllint"]),
    "libxml2-devel": ("0", "2.12.8", "2.fc41", "x86_64", ["libxml2 = 2.12.8-2.fc41", "zlib-devel"],
                      ["pkgconfig(libxml-2.0) = 2.12.8"], []),
    "libcurl": ("0", "8.9.1", "2.fc41", "x86_64", ["openssl-libs >= 1:3.0", "zlib-ng-compat"], [], []),
    "curl": ("0", "8.9.1", "2.fc41", "x86_64", ["libcurl = 8.9.1-2.fc41"], [], ["/usr/bin/curl"]),
    "libcurl-devel": ("0", "8.9.1", "2.fc41", "x86_64", ["libcurl = 8.9.1-2.fc41"], ["pkgconfig(libcurl) = 8.9.1"], []),
    "sqlite-libs": ("0", "3.46.1", "1.fc41", "x86_64", ["zlib-ng-compat"], [], []),
    "sqlite": ("0", "3.46.1", "1.fc41", "x86_64", ["sqlite-libs = 3.46.1-1.fc41", "(readline or libedit)"], [], ["/usr/bin/sqlite3"]),
    "sqlite-devel": ("0", "3.46.1", "1.fc41", "x86_64", ["sqlite-libs = 3.46.1-1.fc41"],
                     ["pkgconfig(sqlite3) = 3.46.1"], []),
    "readline": ("0", "8.2", "10.fc41", "x86_64", ["glibc"], [], []),
    "pkgconf": ("0", "2.3.0", "1.fc41", "x86_64", ["glibc"], [], []),
    "pkgconf-pkg-config": ("0", "2.3.0", "1.fc41", "x86_64", ["pkgconf = 2.3.0-1.fc41"],
                           ["pkg-config = 2.3.0", "pkgconfig = 1:2.3.0"], ["/usr/bin/pkg-config"]),
    "cmake-data": ("0", "3.30.5", "1.fc41", "noarch", [], [], []),
    "cmake-filesystem": ("0", "3.30.5", "1.fc41", "x86_64", [], [], []),
    "cmake": ("0", "3.30.5", "1.fc41", "x86_64", ["cmake-data = 3.30.5-1.fc41", "cmake-filesystem", "libcurl",
                                                   "libxml2", "/usr/bin/pkg-config"], [], ["/usr/bin/cmake"]),
    "ninja-build": ("0", "1.12.1", "3.fc41", "x86_64", ["glibc"], [], ["/usr/bin/ninja"]),
}
BASE = ["glibc", "bash", "zlib-ng-compat", "openssl-libs", "readline", "icu"]


def entry(text):
    """"name >= 1:2.0-3" or "name" as an rpm:entry element."""
    parts = text.split()
    if len(parts) != 3 or text.startswith("("):  # a plain name, or a rich dependency as written
        return f'<rpm:entry name={quoteattr(text)}/>'
    name, op, evr = parts
    flags = {"=": "EQ", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}[op]
    epoch, _, rest = evr.rpartition(":") if ":" in evr else ("0", "", evr)
    ver, _, rel = rest.partition("-")
    attrs = f'flags="{flags}" epoch="{epoch or 0}" ver={quoteattr(ver)}' + (f' rel={quoteattr(rel)}' if rel else "")
    return f'<rpm:entry name={quoteattr(name)} {attrs}/>'


def package(name, epoch, ver, rel, arch, requires, provides, files, conflicts=(), obsoletes=()):
    out = [f'<package type="rpm">\n  <name>{escape(name)}</name>\n  <arch>{arch}</arch>\n'
           f'  <version epoch="{epoch}" ver={quoteattr(ver)} rel={quoteattr(rel)}/>\n'
           f'  <checksum type="sha256" pkgid="YES">{hashlib.sha256(name.encode()).hexdigest()}</checksum>\n'
           f'  <summary>generated package {escape(name)}</summary>\n  <description>generated</description>\n'
           f'  <packager></packager>\n  <url></url>\n  <time file="1732000000" build="1732000000"/>\n'
           f'  <size package="6000" installed="100" archive="500"/>\n'
           f'  <location href="{escape(name)}-{escape(ver)}-{escape(rel)}.{arch}.rpm"/>\n  <format>\n'
           f'    <rpm:license>MIT</rpm:license>\n    <rpm:vendor></rpm:vendor>\n    <rpm:group>Unspecified</rpm:group>\n'
           f'    <rpm:buildhost>bench</rpm:buildhost>\n    <rpm:sourcerpm>{escape(name)}-{escape(ver)}-{escape(rel)}.src.rpm</rpm:sourcerpm>\n'
           f'    <rpm:header-range start="4504" end="6000"/>\n']
    evr = f"{'' if epoch == '0' else epoch + ':'}{ver}-{rel}"
    sections = [("provides", [f"{name} = {evr}", f"{name}(x86-64) = {evr}"] + list(provides)),
                ("requires", list(requires)), ("conflicts", list(conflicts)), ("obsoletes", list(obsoletes))]
    for tag, items in sections:
        if items:
            out.append(f"    <rpm:{tag}>\n" + "".join(f"      {entry(i)}\n" for i in items) + f"    </rpm:{tag}>\n")
    out += [f"    <file>{escape(f)}</file>\n" for f in files]
    out.append("  </format>\n</package>\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--packages", type=int, default=50000)
    a = ap.parse_args()
    rng = random.Random(804)
    root, repo = os.path.join(a.dir, "root"), os.path.join(a.dir, "repo")
    os.makedirs(os.path.join(root, "etc/yum.repos.d"), exist_ok=True)
    os.makedirs(os.path.join(repo, "repodata"), exist_ok=True)
    with open(os.path.join(root, "etc/os-release"), "w") as f:
        f.write('NAME="Fedora Linux"\nVERSION_ID=41\nID=fedora\nPRETTY_NAME="Fedora Linux 41 (Forty One)"\n')
    with open(os.path.join(root, "etc/yum.repos.d/bench.repo"), "w") as f:
        f.write(f"[bench]\nname=bench $releasever $basearch\nbaseurl=file://{os.path.abspath(repo)}\nenabled=1\ngpgcheck=0\n")
    body = [package(n, *v) for n, v in sorted(CORE.items())]
    fillers = []
    for i in range(a.packages):
        name = f"pkg{i:05d}" if i % 7 else f"lib{i:05d}"
        epoch = str(rng.randint(1, 3)) if i % 13 == 0 else "0"
        ver = f"{rng.randint(0, 30)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
        rel = f"{rng.randint(1, 9)}.fc41"
        family_start = i - i % 40
        requires = set()
        for _ in range(rng.randint(0, 6)):
            if i > family_start and rng.random() < 0.7:
                dep, dep_epoch, dep_ver = fillers[rng.randrange(family_start, i)]
                requires.add(dep if rng.random() < 0.8 else f"{dep} >= {'' if dep_epoch == '0' else dep_epoch + ':'}{dep_ver}")
            else:
                requires.add(rng.choice(BASE))
        if i % 29 == 0 and i > family_start + 1:
            requires.add(f"({fillers[family_start][0]} or {fillers[family_start + 1][0]})")
        provides = [f"{name}.so.{ver.split('.')[0]}()(64bit)"] if name.startswith("lib") else []
        files = [f"/usr/bin/{name}"] if i % 5 == 0 else []
        conflicts = [f"pkg{rng.randrange(a.packages):05d} < 1.0"] if i % 97 == 0 else []
        obsoletes = [f"old-{name} < {ver}"] if i % 89 == 0 else []
        arch = "noarch" if i % 11 == 0 else "x86_64"
        fillers.append((name, epoch, ver))
        body.append(package(name, epoch, ver, rel, arch, sorted(requires), provides, files, conflicts, obsoletes))
    count = len(body)
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<metadata xmlns="http://linux.duke.edu/metadata/common" '
           f'xmlns:rpm="http://linux.duke.edu/metadata/rpm" packages="{count}">\n' + "".join(body) + "</metadata>\n").encode()
    packed = gzip.compress(xml, compresslevel=6, mtime=1732000000)
    digest = hashlib.sha256(packed).hexdigest()
    href = f"repodata/{digest}-primary.xml.gz"
    with open(os.path.join(repo, href), "wb") as f:
        f.write(packed)
    with open(os.path.join(repo, "repodata/repomd.xml"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<repomd xmlns="http://linux.duke.edu/metadata/repo" '
                'xmlns:rpm="http://linux.duke.edu/metadata/rpm">\n  <revision>1732000000</revision>\n'
                f'  <data type="primary">\n    <checksum type="sha256">{digest}</checksum>\n'
                f'    <open-checksum type="sha256">{hashlib.sha256(xml).hexdigest()}</open-checksum>\n'
                f'    <location href="{href}"/>\n    <timestamp>1732000000</timestamp>\n'
                f'    <size>{len(packed)}</size>\n    <open-size>{len(xml)}</open-size>\n  </data>\n</repomd>\n')
    print(f"{a.dir}: {count} packages ({len(CORE)} for the needs), primary.xml {len(xml) >> 20} MB, {len(packed) >> 20} MB gzip'd")


if __name__ == "__main__":
    main()
