#!/usr/bin/env python3
"""Writes a deterministic, conda-forge-sized conda channel for benchmarks.

    bench/gen-conda-channel.py OUT [--records N] [--seed S] [--zst] [--zst-level L]
    bench/gen-conda-channel.py --check OUT

OUT/linux-64/repodata.json and OUT/noarch/repodata.json get about 300,000 records together
(about 175 MB): the shapes of conda-forge's repodata.json (build strings such as
py310h5eee18b_0, h1234567_3 and pyhd8ed1ab_0, build numbers, MatchSpec depends such as
"python >=3.10,<3.11.0a0", "python_abi 3.10.* *_cp310", "libgcc-ng >=12",
"__glibc >=2.17,<3.0.a0" and run-export pins ">=1.2.3,<1.3.0a0", constrains, a few
track_features, .tar.bz2 records under "packages" and .conda records under "packages.conda",
some stems in both, md5/sha256/size/timestamp fields).

The names are real conda-forge names where it matters (every package that
mappings/conda-forge.toml names, the compiler, Python, BLAS, OpenMP and CUDA families with their
real dependency shapes) and generated ones elsewhere (r-*, perl-*, Python-style and C library
names made of syllables). Every depends spec of every record matches at least one record of
the channel, by name, version and build (virtual packages such as __glibc aside), and pins are
drawn from the versions that existed at the record's time, so a solve over it meets the same
kind of work a solve over conda-forge does. Constrains may name packages that do not exist, as
real ones do ("openmp_impl 9999").

Python 3 standard library only; a fixed seed, so the same arguments give the same bytes. The
channel is checked before it is written; --check OUT reads a written one back and checks it
again (record counts, sizes, file names, every depends spec).
"""

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import tomllib

SEED = 725804
DEFAULT_RECORDS = 300_000

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "mappings", "conda-forge.toml")

# The timeline the channel covers (seconds since the epoch).
T0 = 1546300800  # 2019-01-01
T1 = 1748736000  # 2025-06-01
# conda-forge published .tar.bz2 only before this, both formats for a while, then .conda only.
BOTH_FROM = 1664582400  # 2022-10-01
CONDA_ONLY_FROM = 1688169600  # 2023-07-01

# Python minor versions and when their builds start (and stop).
PYTHONS = [
    ("3.8", T0, 1727740800),
    ("3.9", 1601510400, T1 + 1),
    ("3.10", 1633046400, T1 + 1),
    ("3.11", 1666569600, T1 + 1),
    ("3.12", 1696118400, T1 + 1),
    ("3.13", 1728345600, T1 + 1),
]
R_BASES = [("4.1", T0, 1680307200), ("4.2", 1656633600, 1714521600),
           ("4.3", 1682899200, T1 + 1), ("4.4", 1714521600, T1 + 1)]

LICENSES = [("MIT", "MIT"), ("BSD-3-Clause", "BSD"), ("Apache-2.0", "APACHE"),
            ("GPL-3.0-or-later", "GPL3"), ("LGPL-2.1-or-later", "LGPL"), ("MPL-2.0", "OTHER"),
            ("BSD-2-Clause", "BSD"), ("Zlib", "OTHER"), ("ISC", "OTHER"),
            ("GPL-2.0-or-later", "GPL2"), ("PSF-2.0", "PSF")]

VIRTUAL = re.compile(r"^__")


# ---------------------------------------------------------------------------------------------
# versions

_VKEYS = {}


def _atom(x):
    if x.isdigit():
        return (1, int(x), "")
    if x == "dev":
        return (-1, 0, "")
    if x == "post":
        return (2, 0, "")
    return (0, 0, x)


def vkey(v):
    """A sort key in conda's version order (conda's VersionOrder, for the versions this script
    makes): an epoch first; components split at . _ -; a component that starts with letters
    gets a 0 in front ("1.1.post1" is "1.1.0post1"); missing components and atoms count as 0;
    letters sort before numbers (1.1.0a1 < 1.1.0), except dev (first) and post (after
    numbers)."""
    k = _VKEYS.get(v)
    if k is not None:
        return k
    body, epoch = v.lower(), 0
    if "!" in body:
        e, body = body.split("!", 1)
        epoch = int(e)
    comps = []
    for comp in re.split(r"[._-]", body)[:8]:
        atoms = re.findall(r"\d+|[a-z]+", comp)
        if atoms and not atoms[0].isdigit():
            atoms.insert(0, "0")
        atoms = [_atom(x) for x in atoms[:4]] + [(1, 0, "")] * (4 - min(len(atoms), 4))
        comps.append(tuple(atoms))
    comps += [((1, 0, ""),) * 4] * (8 - len(comps))
    k = (epoch, tuple(comps))
    _VKEYS[v] = k
    return k


def numeric_prefix(v):
    """[1, 2, 3] for "1.2.3", [1, 4] for "1.4_8"; None when the version does not start numeric."""
    if "!" in v:
        return None
    m = re.match(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?", v)
    if not m:
        return None
    return [int(x) for x in m.groups() if x is not None]


class VersionMaker:
    def __init__(self, rng):
        self.rng = rng

    def semver(self, n, major=None):
        r = self.rng
        ma = r.choice([0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5, 7, 12]) if major is None else major
        mi = r.randint(0, 12)
        pa = r.randint(0, 4)
        three = r.random() < 0.8
        out = []
        for _ in range(n):
            roll = r.random()
            if roll < 0.08:
                ma, mi, pa = ma + 1, 0, 0
            elif roll < 0.45:
                mi, pa = mi + 1, 0
            else:
                pa += 1
            v = f"{ma}.{mi}.{pa}" if three else f"{ma}.{mi}"
            if three and pa == 0 and r.random() < 0.04:
                out.append(f"{ma}.{mi}.0rc{r.randint(1, 3)}")
            out.append(v)
            if r.random() < 0.015:
                out.append(v + ".post" + str(r.randint(0, 1)))
        if r.random() < 0.03:
            out.insert(0, f"{ma if ma else 0}.{max(mi - 3, 0)}.0.dev0")
        return out

    def calver(self, n):
        r = self.rng
        y, m, d = 2019 + r.randint(0, 2), r.randint(1, 12), r.randint(1, 28)
        style = r.choice(["ymd", "ymd", "ym", "y.n"])
        out = []
        for i in range(n):
            m += r.randint(1, 4)
            if m > 12:
                y, m = y + 1, m - 12
            d = r.randint(1, 28)
            out.append({"ymd": f"{y}.{m}.{d}", "ym": f"{y}.{m:02d}",
                        "y.n": f"{y}.{i + 1}"}[style])
        return out

    def r_versions(self, n):
        r = self.rng
        ma, mi, pa = r.randint(0, 3), r.randint(0, 15), r.randint(0, 9)
        out = []
        for _ in range(n):
            if r.random() < 0.5:
                pa += 1
            else:
                mi, pa = mi + 1, 0
            out.append(f"{ma}.{mi}_{pa}" if r.random() < 0.4 else f"{ma}.{mi}.{pa}")
        return out

    def perl_versions(self, n):
        r = self.rng
        ma, mi = r.randint(0, 2), r.randint(1, 80)
        out = []
        for _ in range(n):
            mi += r.randint(1, 9)
            out.append(f"{ma}.{mi:02d}" if r.random() < 0.6 else f"{ma}.{mi:03d}")
        return out


def dedupe_sorted(versions):
    seen = set()
    out = []
    for v in sorted(versions, key=vkey):
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


# ---------------------------------------------------------------------------------------------
# names

CONS = "b c d f g h j k l m n p r s t v w z br ch cr dr fl gr kl pl pr sh st th tr".split()
VOWS = "a e i o u a e i o ai ou ea".split()


class Namer:
    def __init__(self, rng, taken):
        self.rng = rng
        self.taken = set(taken)

    def word(self, syl=None):
        r = self.rng
        s = syl or r.choice([2, 2, 2, 3, 3, 1])
        w = "".join(r.choice(CONS) + r.choice(VOWS) for _ in range(s))
        if r.random() < 0.3:
            w += r.choice("nrlsxtm")
        return w

    def unique(self, make):
        for _ in range(1000):
            n = make()
            if n not in self.taken and re.match(r"^[a-z0-9_][a-z0-9_.-]*$", n):
                self.taken.add(n)
                return n
        raise RuntimeError("could not make a unique name")

    def python_name(self):
        r = self.rng
        forms = [lambda: self.word(), lambda: self.word() + "-" + self.word(),
                 lambda: "py" + self.word(), lambda: self.word() + "-python",
                 lambda: "pytest-" + self.word(), lambda: "sphinx-" + self.word(),
                 lambda: "types-" + self.word(), lambda: "jupyter-" + self.word(),
                 lambda: "django-" + self.word(), lambda: self.word() + "lib",
                 lambda: "flake8-" + self.word(), lambda: self.word() + "_" + self.word()]
        w = [30, 12, 12, 4, 5, 4, 4, 3, 4, 4, 2, 3]
        return self.unique(lambda: r.choices(forms, w)[0]())

    def r_name(self):
        return self.unique(lambda: "r-" + self.word() + (self.word(1) if self.rng.random() < 0.3 else ""))

    def perl_name(self):
        r = self.rng
        return self.unique(lambda: "perl-" + "-".join(self.word(r.choice([1, 2])) for _ in range(r.choice([1, 2, 2, 3]))))

    def lib_name(self):
        r = self.rng
        forms = [lambda: "lib" + self.word(), lambda: self.word(), lambda: self.word() + "-cpp",
                 lambda: "lib" + self.word() + "-" + self.word(1), lambda: self.word() + "-tools"]
        return self.unique(lambda: r.choices(forms, [40, 30, 8, 10, 5])[0]())


# ---------------------------------------------------------------------------------------------
# the channel

class Pkg:
    """One package name: its versions, each with a timestamp, in ascending order."""

    __slots__ = ("name", "subdir", "versions", "times", "builds")

    def __init__(self, name, subdir, versions, times):
        self.name, self.subdir = name, subdir
        self.versions, self.times = versions, times
        self.builds = {}  # version -> [(build, build_number, ts)]

    def version_at(self, ts):
        """The highest version released at or before ts (the oldest when none was). Versions are
        in ascending order; their times need not be (Python 3.8.20 came after 3.12.0)."""
        best = 0
        for i, t in enumerate(self.times):
            if t <= ts:
                best = i
        return self.versions[best]


def spread_times(rng, n, start=None, end=None):
    start = T0 + rng.randint(0, (T1 - T0) // 2) if start is None else start
    end = T1 if end is None else end
    if n == 1:
        return [rng.randint(start, end)]
    gaps = [rng.random() ** 1.5 + 0.05 for _ in range(n)]
    total = sum(gaps)
    out, t = [], start
    for g in gaps[:-1]:
        t += int((end - start) * g / total)
        out.append(t)
    out.append(min(end, t + rng.randint(3600, 86400 * 60)))
    return sorted(out)


class Gen:
    def __init__(self, seed, target):
        self.rng = random.Random(seed)
        self.vm = VersionMaker(self.rng)
        self.target = target
        self.pkgs = {}
        self.records = {"linux-64": {"packages": {}, "packages.conda": {}},
                        "noarch": {"packages": {}, "packages.conda": {}}}
        self.count = 0
        self.lib_names = []  # real libraries and tools, in the order made (each may pin earlier ones)

    # -- basics -----------------------------------------------------------------------------

    def pkg(self, name, versions, subdir="linux-64", times=None, start=None):
        versions = dedupe_sorted(versions)
        times = times or spread_times(self.rng, len(versions), start)
        p = Pkg(name, subdir, versions, times)
        self.pkgs[name] = p
        return p

    def h(self, *parts):
        return hashlib.md5("\0".join(map(str, parts)).encode()).hexdigest()[:7]

    def pin(self, name, ts, max_pin="x.x", exact=False):
        """A run-export style MatchSpec for the version of `name` current at ts."""
        p = self.pkgs[name]
        v = p.version_at(ts)
        if exact:
            builds = p.builds.get(v)
            if builds:
                return f"{name} {v} {builds[-1][0]}"
            return f"{name} {v}.*"
        nums = numeric_prefix(v)
        if max_pin == "min" or nums is None:
            return f"{name} >={v}"
        if max_pin == "any":
            return name
        width = {"x": 1, "x.x": 2, "x.x.x": 3}[max_pin]
        nums = (nums + [0, 0, 0])[:width]
        nums[-1] += 1
        return f"{name} >={v},<{'.'.join(map(str, nums))}.0a0"

    def add(self, p, version, build, bn, ts, depends, constrains=(), track="", noarch=None,
            size_scale=1.0, license_=None):
        name = p.name
        subdir = "noarch" if noarch else p.subdir
        stem = f"{name}-{version}-{build}"
        r = self.rng
        lic, fam = license_ or r.choice(LICENSES)
        size = max(1200, int(r.lognormvariate(11.2, 1.6) * size_scale))
        rec = {"build": build, "build_number": bn, "depends": list(depends),
               "license": lic, "name": name, "subdir": subdir, "timestamp": ts * 1000 + r.randint(0, 999),
               "version": version}
        if r.random() < 0.7:
            rec["license_family"] = fam
        if constrains:
            rec["constrains"] = list(constrains)
        if track:
            rec["track_features"] = track
        if noarch:
            rec["noarch"] = noarch
        if ts < T0 + 86400 * 200 and r.random() < 0.3:
            rec["timestamp"] = ts  # some old records carry seconds, as old conda-build wrote
        formats = []
        if ts < BOTH_FROM:
            formats = [".tar.bz2"]
        elif ts < CONDA_ONLY_FROM:
            formats = [".tar.bz2", ".conda"] if r.random() < 0.6 else [".conda"]
        else:
            formats = [".conda"]
        for ext in formats:
            fn = stem + ext
            one = dict(rec)
            digest = hashlib.sha256(f"{subdir}/{fn}".encode()).hexdigest()
            one["md5"] = hashlib.md5(digest.encode()).hexdigest()
            one["sha256"] = digest
            one["size"] = size if ext == ".conda" else int(size * (1.15 + r.random() * 0.5))
            key = "packages" if ext == ".tar.bz2" else "packages.conda"
            self.records[subdir][key][fn] = one
            self.count += 1
        p.builds.setdefault(version, []).append((build, bn, ts))

    def glibc(self, ts):
        return "__glibc >=2.17,<3.0.a0" if ts > 1690848000 else None

    def libgcc(self, ts, cxx=False, fortran=False):
        g = self.pkgs["libgcc-ng"].version_at(ts)
        major = g.split(".")[0]
        out = [f"libgcc-ng >={major}"]
        if cxx:
            out.append(f"libstdcxx-ng >={major}")
        if fortran:
            out.append(f"libgfortran5 >={g}")
            out.append("libgfortran-ng")
        if (gl := self.glibc(ts)):
            out.append(gl)
        return out

    def pythons_at(self, ts):
        return [v for v, a, b in PYTHONS if a <= ts < b]

    def py_deps(self, pyv, ts):
        nxt = pyv.split(".")
        nxt = f"{nxt[0]}.{int(nxt[1]) + 1}"
        tag = "cp" + pyv.replace(".", "")
        return [f"python >={pyv},<{nxt}.0a0", f"python_abi {pyv}.* *_{tag}"]

    def rebuilds(self, ts, maxn=3):
        """Build numbers and times of a version's builds: 0 first, migrations later."""
        r = self.rng
        n = r.choices([1, 2, 3, 4], [60, 25, 10, 5])[0]
        n = min(n, maxn)
        out = []
        t = ts
        for bn in range(n):
            out.append((bn, t))
            t += r.randint(86400 * 7, 86400 * 200)
            if t > T1:
                break
        return out

    # -- families ---------------------------------------------------------------------------

    def gcc_family(self):
        gccs = ["9.5.0", "10.4.0", "11.2.0", "11.4.0", "12.1.0", "12.2.0", "12.3.0", "13.1.0",
                "13.2.0", "13.3.0", "14.1.0", "14.2.0"]
        times = spread_times(self.rng, len(gccs), T0, T1 - 86400 * 30)
        binutils = ["2.36.1", "2.38", "2.39", "2.40", "2.43"]
        btimes = spread_times(self.rng, len(binutils), T0, T1 - 86400 * 60)
        P = self.pkg
        mutex = P("_libgcc_mutex", ["0.1"], times=[T0])
        self.add(mutex, "0.1", "conda_forge", 0, T0, [], size_scale=0.01, license_=("None", "OTHER"))
        for n in ["binutils_impl_linux-64", "binutils_linux-64", "binutils", "ld_impl_linux-64"]:
            P(n, binutils, times=btimes)
        kh = P("kernel-headers_linux-64", ["3.10.0", "4.18.0"], subdir="noarch", times=[T0, 1717200000])
        sr = P("sysroot_linux-64", ["2.17", "2.28"], subdir="noarch", times=[T0, 1717200000])
        for v, t in zip(kh.versions, kh.times):
            self.add(kh, v, "he073ed8_17" if v == "3.10.0" else "he073ed8_2", 17 if v == "3.10.0" else 2, t,
                     [], constrains=["sysroot_linux-64 ==" + ("2.17" if v == "3.10.0" else "2.28")],
                     noarch="generic", license_=("LGPL-2.0-or-later AND GPL-2.0-or-later", "GPL"))
        for v, t in zip(sr.versions, sr.times):
            self.add(sr, v, "h4a8ded7_17" if v == "2.17" else "h4a8ded7_2", 17 if v == "2.17" else 2, t,
                     [f"kernel-headers_linux-64 {'3.10.0' if v == '2.17' else '4.18.0'} he073ed8_{17 if v == '2.17' else 2}",
                      "_sysroot_linux-64_curr_repodata_hack 3.*"] if v == "2.17" else
                     [f"kernel-headers_linux-64 4.18.0 he073ed8_2", "tzdata"],
                     noarch="generic", size_scale=40, license_=("LGPL-2.0-or-later AND GPL-2.0-or-later", "GPL"))
        hack = P("_sysroot_linux-64_curr_repodata_hack", ["3"], subdir="noarch", times=[T0])
        self.add(hack, "3", "h69a702a_16", 16, T0, [], noarch="generic", size_scale=0.02)
        runtime = ["libgcc-ng", "libgcc", "libstdcxx-ng", "libstdcxx", "libgomp", "libgfortran5",
                   "libgfortran-ng", "libgfortran", "libsanitizer", "gcc_impl_linux-64",
                   "gxx_impl_linux-64", "gfortran_impl_linux-64", "gcc_linux-64", "gxx_linux-64",
                   "gfortran_linux-64", "gcc", "gxx", "gfortran", "libgcc-devel_linux-64",
                   "libstdcxx-devel_linux-64"]
        for n in runtime:
            P(n, gccs, subdir="noarch" if n.endswith("-devel_linux-64") else "linux-64", times=times)
        omp = P("_openmp_mutex", ["4.5"], times=[T0 + 86400])
        for v, t in zip(binutils, btimes):
            bld = "h" + self.h("ld", v) + "_0"
            self.add(self.pkgs["ld_impl_linux-64"], v, bld, 0, t, [], constrains=[f"binutils_impl_linux-64 {v}"])
            self.add(self.pkgs["binutils_impl_linux-64"], v, "h" + self.h("bi", v) + "_0", 0, t,
                     [f"ld_impl_linux-64 {v} {bld}", "sysroot_linux-64"], size_scale=20)
            self.add(self.pkgs["binutils"], v, "h" + self.h("b", v) + "_0", 0, t,
                     [f"binutils_impl_linux-64 >={v},<{v}.1.0a0"])
            self.add(self.pkgs["binutils_linux-64"], v, "h" + self.h("bl", v) + "_0", 0, t,
                     [f"binutils_impl_linux-64 {v}.*", "sysroot_linux-64"])
        lic = ("GPL-3.0-only WITH GCC-exception-3.1", "GPL")
        for i, (v, t) in enumerate(zip(gccs, times)):
            major = v.split(".")[0]
            hh = "h" + self.h("gcc", v)
            bv = self.pkgs["binutils"].version_at(t)
            for bn, bt in self.rebuilds(t, 2):
                b = f"{hh}_{bn}"
                self.add(self.pkgs["libgomp"], v, b, bn, bt, ["_libgcc_mutex 0.1 conda_forge"], license_=lic)
                self.add(self.pkgs["libgcc"], v, b, bn, bt, ["_libgcc_mutex 0.1 conda_forge", "_openmp_mutex >=4.5"],
                         constrains=[f"libgomp {v} {b}", f"libgcc-ng =={v}=*_{bn}"], license_=lic)
                self.add(self.pkgs["libgcc-ng"], v, b, bn, bt, [f"libgcc {v} {b}"] if i >= 8 else
                         ["_libgcc_mutex 0.1 conda_forge", "_openmp_mutex >=4.5"],
                         constrains=[f"libgomp {v} {b}"], license_=lic)
                self.add(self.pkgs["libstdcxx"], v, b, bn, bt, [f"libgcc {v} {b}"], size_scale=8, license_=lic)
                self.add(self.pkgs["libstdcxx-ng"], v, b, bn, bt, [f"libstdcxx {v} {b}"] if i >= 8 else [],
                         size_scale=8, license_=lic)
                self.add(self.pkgs["libgfortran"], v, b, bn, bt, [f"libgfortran5 {v} {b}"], license_=lic)
                self.add(self.pkgs["libgfortran5"], v, b, bn, bt, [f"libgcc-ng >={v}"],
                         constrains=[f"libgfortran-ng {v}.*"], size_scale=3, license_=lic)
                self.add(self.pkgs["libgfortran-ng"], v, b, bn, bt, [f"libgfortran5 {v} {b}"], license_=lic)
                self.add(self.pkgs["libsanitizer"], v, b, bn, bt, [f"libgcc-ng >={v}", f"libstdcxx-ng >={v}"],
                         size_scale=10, license_=lic)
                self.add(self.pkgs["libgcc-devel_linux-64"], v, b, bn, bt, [], noarch="generic",
                         size_scale=6, license_=lic)
                self.add(self.pkgs["libstdcxx-devel_linux-64"], v, b, bn, bt, [], noarch="generic",
                         size_scale=20, license_=lic)
                impl = [f"binutils_impl_linux-64 >={bv}", f"libgcc-devel_linux-64 {v} {b}",
                        f"libgcc-ng >={v}", f"libgomp >={v}", f"libsanitizer {v} {b}",
                        f"libstdcxx-ng >={v}", "sysroot_linux-64"]
                self.add(self.pkgs["gcc_impl_linux-64"], v, b, bn, bt, impl, size_scale=60, license_=lic)
                self.add(self.pkgs["gxx_impl_linux-64"], v, b, bn, bt,
                         [f"gcc_impl_linux-64 {v} {b}", f"libstdcxx-devel_linux-64 {v} {b}", "sysroot_linux-64"],
                         size_scale=30, license_=lic)
                self.add(self.pkgs["gfortran_impl_linux-64"], v, b, bn, bt,
                         [f"gcc_impl_linux-64 >={v}", f"libgfortran5 >={v}", f"libstdcxx-ng >={v}", "sysroot_linux-64"],
                         size_scale=30, license_=lic)
                for front, impl_name in [("gcc", "gcc_impl_linux-64"), ("gxx", "gxx_impl_linux-64"),
                                         ("gfortran", "gfortran_impl_linux-64")]:
                    extra = [f"gcc {v}.*"] if front != "gcc" else []
                    self.add(self.pkgs[front], v, f"h{self.h(front, v)}_{bn}", bn, bt,
                             extra + [f"{impl_name} {v}.*"], size_scale=0.05, license_=lic)
                    self.add(self.pkgs[front + "_linux-64"], v, f"h{self.h(front, 'l', v)}_{bn}", bn, bt,
                             [f"binutils_linux-64", f"{impl_name} {v}.*", "sysroot_linux-64"] +
                             ([f"gcc_linux-64 {v} h{self.h('gcc', 'l', v)}_{bn}"] if front != "gcc" else []),
                             size_scale=0.05, license_=lic)
        # _openmp_mutex: the GNU and the LLVM implementation, chosen by build string.
        self.add(omp, "4.5", "2_gnu", 16, T0 + 86400, ["_libgcc_mutex 0.1 conda_forge", "libgomp >=7.5.0"],
                 constrains=["openmp_impl 9999"], size_scale=0.05, license_=("BSD-3-Clause", "BSD"))
        self.pending_llvm_mutex = omp
        # The compilers feedstock's metapackages.
        metas = ["1.5.2", "1.6.0", "1.7.0", "1.8.0", "1.9.0"]
        mtimes = spread_times(self.rng, len(metas), 1672531200, T1 - 86400 * 20)
        for n in ["c-compiler", "cxx-compiler", "fortran-compiler", "compilers"]:
            P(n, metas, times=mtimes)
        for v, t in zip(metas, mtimes):
            g = self.pkgs["gcc"].version_at(t).split(".")[0]
            b = "h" + self.h("cc", v) + "_0"
            self.add(self.pkgs["c-compiler"], v, b, 0, t, ["binutils", "gcc", f"gcc_linux-64 {g}.*"], size_scale=0.01)
            self.add(self.pkgs["cxx-compiler"], v, "h" + self.h("cxx", v) + "_0", 0, t,
                     [f"c-compiler {v} {b}", "gxx", f"gxx_linux-64 {g}.*"], size_scale=0.01)
            self.add(self.pkgs["fortran-compiler"], v, "h" + self.h("fc", v) + "_0", 0, t,
                     ["binutils", f"c-compiler {v} {b}", "gfortran", f"gfortran_linux-64 {g}.*"], size_scale=0.01)
            self.add(self.pkgs["compilers"], v, "ha770c72_0", 0, t,
                     [f"c-compiler {v} {b}", f"cxx-compiler {v}.*", f"fortran-compiler {v}.*"],
                     noarch="generic", size_scale=0.01)
        self.pkgs["compilers"].subdir = "noarch"

    def llvm_family(self):
        P = self.pkg
        majors = ["15.0.7", "16.0.6", "17.0.6", "18.1.8", "19.1.7"]
        times = spread_times(self.rng, len(majors), 1672531200, T1 - 86400 * 10)
        for v in majors:
            P(f"libllvm{v.split('.')[0]}", [v], times=[times[majors.index(v)]])
        for n in ["llvm-tools", "llvmdev", "llvm", "clang", "clangxx", "clangdev", "libclang-cpp",
                  "llvm-openmp", "libcxx", "lld"]:
            P(n, majors, times=times)
        for v, t in zip(majors, times):
            m = v.split(".")[0]
            b = "h" + self.h("llvm", v) + "_0"
            base = self.libgcc(t, cxx=True) + [self.pin("libzlib", t), self.pin("zstd", t, "x.x.x")]
            self.add(self.pkgs[f"libllvm{m}"], v, b, 0, t, base + [self.pin("libxml2", t)], size_scale=30)
            self.add(self.pkgs["llvm-tools"], v, b, 0, t, [f"libllvm{m} {v} {b}"] + base, size_scale=20)
            self.add(self.pkgs["llvmdev"], v, b, 0, t, [f"libllvm{m} {v} {b}", f"llvm-tools {v} {b}"] + base,
                     size_scale=40)
            self.add(self.pkgs["llvm"], v, b, 0, t, [f"libllvm{m} {v}.*", f"llvm-tools {v}.*"], size_scale=0.02)
            self.add(self.pkgs["libclang-cpp"], v, b, 0, t, [f"libllvm{m} >={v},<{int(m) + 1}.0a0"] + base,
                     size_scale=10)
            self.add(self.pkgs["clang"], v, b, 0, t, [f"libclang-cpp {v} {b}", "binutils_impl_linux-64",
                                                         "libgcc-devel_linux-64", "sysroot_linux-64"] + base,
                     size_scale=10)
            self.add(self.pkgs["clangxx"], v, b, 0, t, [f"clang {v} {b}", "libstdcxx-devel_linux-64"],
                     size_scale=0.05)
            self.add(self.pkgs["clangdev"], v, b, 0, t, [f"clang {v} {b}", f"clangxx {v} {b}",
                                                            f"llvmdev {v}"] + base, size_scale=30)
            self.add(self.pkgs["llvm-openmp"], v, b, 0, t, self.libgcc(t),
                     constrains=["openmp " + v + "|" + v + ".*"], size_scale=2)
            self.add(self.pkgs["libcxx"], v, b, 0, t, base, size_scale=2)
            self.add(self.pkgs["lld"], v, b, 0, t, [f"libllvm{m} {v}.*"] + base, size_scale=3)
        omp = self.pending_llvm_mutex
        self.add(omp, "4.5", "2_kmp_llvm", 2, times[0], ["_libgcc_mutex 0.1 conda_forge", "llvm-openmp >=9.0.1"],
                 size_scale=0.05, license_=("BSD-3-Clause", "BSD"))

    def python_family(self):
        """python, python_abi, pip, setuptools, wheel, tzdata, ca-certificates, numpy."""
        P = self.pkg
        pyvers, pytimes = [], []
        patches = {"3.8": 20, "3.9": 21, "3.10": 16, "3.11": 11, "3.12": 8, "3.13": 2}
        for minor, start, end in PYTHONS:
            n = patches[minor] + 1
            s = max(start, T0)
            ts = spread_times(self.rng, n, s, min(end, T1))
            first = {"3.8": 6, "3.9": 1, "3.10": 0, "3.11": 0, "3.12": 0, "3.13": 0}[minor]
            for i in range(n):
                if first + i > patches[minor]:
                    break
                pyvers.append(f"{minor}.{first + i}")
                pytimes.append(ts[i])
        order = sorted(range(len(pyvers)), key=lambda i: vkey(pyvers[i]))
        py = P("python", [pyvers[i] for i in order], times=[pytimes[i] for i in order])
        # versions are not in time order across minors; version_at must use times, so keep a
        # (version, time) view sorted by time for pins.
        abi = P("python_abi", [m for m, _, _ in PYTHONS], times=[max(a, T0) for _, a, _ in PYTHONS])
        for m, a, _ in PYTHONS:
            tag = "cp" + m.replace(".", "")
            for bn in (4, 5):
                self.add(abi, m, f"{bn}_{tag}", bn, max(a, T0) + bn * 86400 * 30,
                         [], constrains=[f"python {m}.* *_cpython"], size_scale=0.01)
            if m == "3.13":
                self.add(abi, m, "5_cp313t", 5, a + 86400 * 60, [],
                         constrains=["python 3.13.* *_cp313t"], track="freethreading", size_scale=0.01)
        for v, t in zip(py.versions, py.times):
            minor = ".".join(v.split(".")[:2])
            for bn, bt in self.rebuilds(t, 2):
                deps = ["bzip2 >=1.0.8,<2.0a0", self.pin("libffi", bt), self.pin("libzlib", bt),
                        self.pin("openssl", bt, "x"), self.pin("ncurses", bt), self.pin("readline", bt, "x"),
                        self.pin("libsqlite", bt, "x"), self.pin("tk", bt), self.pin("libuuid", bt, "x"),
                        self.pin("xz", bt) if bt < 1725148800 else self.pin("liblzma", bt, "x"),
                        self.pin("libexpat", bt, "x"), "libnsl >=2.0.1,<2.1.0a0",
                        self.pin("libxcrypt", bt, "min"), "ld_impl_linux-64 >=2.36.1", "tzdata"]
                deps += self.libgcc(bt)
                if minor in ("3.12", "3.13"):
                    deps.append("pip")
                self.add(py, v, f"h{self.h('py', v, bn)}_{bn}_cpython", bn, bt, deps,
                         constrains=[f"python_abi {minor}.* *_cp{minor.replace('.', '')}"], size_scale=40,
                         license_=("Python-2.0", "PSF"))
        # noarch helpers every Python environment has
        for name, vers in [("pip", self.vm.semver(28, 21)), ("setuptools", self.vm.semver(35, 58)),
                           ("wheel", self.vm.semver(12, 0))]:
            p = P(name, vers, subdir="noarch")
            for v, t in zip(p.versions, p.times):
                deps = ["python >=3.8"] + (["setuptools", "wheel"] if name == "pip" else [])
                self.add(p, v, "pyhd8ed1ab_0", 0, t, deps, noarch="python")
                if self.rng.random() < 0.3:
                    self.add(p, v, "pyh8b19718_1", 1, t + 86400 * 9, deps + ["__unix"], noarch="python")
        numpy = P("numpy", [f"1.{m}.{p}" for m in range(19, 27) for p in range(0, 5)] +
                  ["2.0.0", "2.0.1", "2.0.2", "2.1.0", "2.1.3", "2.2.0", "2.2.4"], start=T0)
        for v, t in zip(numpy.versions, numpy.times):
            for pyv in self.pythons_at(t):
                for bn, bt in self.rebuilds(t, 2):
                    deps = self.libgcc(bt, cxx=True) + [self.pin("libblas", bt, "x"), self.pin("libcblas", bt, "x"),
                                                        self.pin("liblapack", bt, "x")] + self.py_deps(pyv, bt)
                    self.add(numpy, v, f"py{pyv.replace('.', '')}h{self.h('np', v, pyv)}_{bn}", bn, bt, deps,
                             constrains=["numpy-base <0a0"], size_scale=8, license_=("BSD-3-Clause", "BSD"))
        base = P("numpy-base", ["1.26.4"], times=[1704067200])
        self.add(base, "1.26.4", "py312h" + self.h("nb") + "_0", 0, 1704067200,
                 ["numpy 1.26.4.*"] + self.py_deps("3.12", 1704067200), size_scale=0.05)

    def blas_family(self):
        P = self.pkg
        builds = list(range(8, 31))
        ver_of = lambda n: "3.9.0" if n < 27 else "3.11.0"
        vers = sorted({ver_of(n) for n in builds}, key=vkey)
        t_of = {n: T0 + (T1 - T0) * (n - 7) // 25 for n in builds}
        for name in ["libblas", "libcblas", "liblapack", "liblapacke", "blas", "blas-devel"]:
            P(name, vers, times=[t_of[8], t_of[27]])
        ob = P("libopenblas", [f"0.3.{i}" for i in range(10, 30)], start=T0)
        openblas = P("openblas", ob.versions, times=ob.times)
        for v, t in zip(ob.versions, ob.times):
            for variant in ("pthreads", "openmp"):
                b = f"{variant}_h{self.h('ob', v, variant)}_0"
                deps = self.libgcc(t, fortran=True)
                if variant == "openmp":
                    deps.append("_openmp_mutex >=4.5")
                self.add(ob, v, b, 0, t, deps, constrains=[f"openblas >={v},<{v[:-len(v.split('.')[-1])]}{int(v.split('.')[-1]) + 1}.0a0"],
                         size_scale=6)
                self.add(openblas, v, f"{variant}_h{self.h('obd', v, variant)}_0", 0, t, [f"libopenblas {v} {b}"],
                         size_scale=0.2)
        mkl = P("mkl", ["2022.1.0", "2022.2.1", "2023.1.0", "2023.2.0", "2024.0.0", "2024.2.2"], start=1640995200)
        for v, t in zip(mkl.versions, mkl.times):
            self.add(mkl, v, f"h{self.h('mkl', v)}_{self.rng.randint(0, 3)}", 0, t,
                     self.libgcc(t) + ["llvm-openmp >=15.0.7", "tbb 2021.*"], size_scale=200,
                     license_=("LicenseRef-IntelSimplifiedSoftwareOct2022", "OTHER"))
        blis = P("blis", ["0.8.1", "0.9.0", "1.0", "1.1"], start=T0)
        for v, t in zip(blis.versions, blis.times):
            self.add(blis, v, f"h{self.h('blis', v)}_0", 0, t, self.libgcc(t), size_scale=3)
        lapack = P("lapack", ["3.6.1", "3.9.0"], times=[T0, T0 + 86400 * 300])
        for v, t in zip(lapack.versions, lapack.times):
            self.add(lapack, v, f"h{self.h('lap', v)}_1", 1, t, self.libgcc(t, fortran=True), size_scale=5)
        for n in builds:
            t = t_of[n]
            v = ver_of(n)
            for impl, dep in [("openblas", lambda: self.pin("libopenblas", t, "x.x.x")),
                              ("mkl", lambda: self.pin("mkl", t, "x")),
                              ("blis", lambda: self.pin("blis", t, "x.x")),
                              ("netlib", lambda: self.pin("libgfortran5", t, "min"))]:
                if impl == "mkl" and t < mkl.times[0]:
                    continue
                b = f"{n}_linux64_{impl}" if n >= 12 else f"{n}_{impl}"
                track = "" if impl == "openblas" else f"blas_{impl}"
                cons = [f"blas * {impl}", f"libcblas {v} {b}", f"liblapack {v} {b}", f"liblapacke {v} {b}"]
                self.add(self.pkgs["libblas"], v, b, n, t, [dep()],
                         constrains=cons, track=track, size_scale=0.1)
                self.add(self.pkgs["libcblas"], v, b, n, t, [f"libblas {v} {b}"],
                         constrains=[c for c in cons if not c.startswith("libcblas")], track=track, size_scale=0.1)
                self.add(self.pkgs["liblapack"], v, b, n, t, [f"libblas {v} {b}"],
                         constrains=[c for c in cons if not c.startswith("liblapack ")], track=track, size_scale=0.1)
                self.add(self.pkgs["liblapacke"], v, b, n, t, [f"libblas {v} {b}", f"libcblas {v} {b}",
                                                               f"liblapack {v} {b}"], track=track, size_scale=0.1)
                self.add(self.pkgs["blas-devel"], v, b, n, t, [f"libblas {v} {b}", f"libcblas {v} {b}",
                                                               f"liblapack {v} {b}", f"liblapacke {v} {b}"],
                         track=track, size_scale=0.05)
                self.add(self.pkgs["blas"], f"2.{100 + n}", impl, n, t, [f"blas-devel {v} {b}"],
                         track=track, size_scale=0.01)
        # blas's versions are 2.1xx, not the libraries': rebuild its version list.
        bl = self.pkgs["blas"]
        bl.versions = sorted(bl.builds, key=vkey)
        bl.times = [min(x[2] for x in bl.builds[v]) for v in bl.versions]

    def cuda_family(self):
        P = self.pkg
        releases = ["11.8", "12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.8", "12.9"]
        times = spread_times(self.rng, len(releases), 1667260800, T1 - 86400 * 15)
        cv = P("cuda-version", releases, subdir="noarch", times=times)
        ctk = P("cudatoolkit", ["11.2.2", "11.8.0"], times=[1609459200, 1667260800])
        for v, t in zip(ctk.versions, ctk.times):
            self.add(ctk, v, f"h{self.h('ctk', v)}_13", 13, t, self.libgcc(t, cxx=True) + [f"__cuda >={v[:4]}"],
                     size_scale=200, license_=("LicenseRef-NVIDIA-End-User-License-Agreement", "OTHER"))
        # component -> (major offset of its own version, minor shift), as NVIDIA numbers them
        comps = {"cuda-cudart": (0, 0), "cuda-nvrtc": (0, 0), "cuda-cupti": (0, 0), "cuda-nvcc": (0, 0),
                 "libnvjitlink": (0, 0), "libcublas": (0, 0), "libcufft": (-1, -2), "libcurand": (-2, -9),
                 "libcusolver": (-1, -6), "libcusparse": (0, -1)}
        comp_versions = {c: [] for c in comps}
        comp_times = {c: [] for c in comps}
        for r, t in zip(releases, times):
            ma, mi = map(int, r.split("."))
            for c, (dma, dmi) in comps.items():
                if ma < 12 and c in ("libnvjitlink",):
                    continue
                patch = 50 + (sum(map(ord, c)) % 7) * 13 + mi * 11
                v = f"{ma + dma}.{max(mi + dmi + (10 if dma < 0 else 0), 0)}.{patch}"
                if c.startswith("libcu") and c not in ("libcublas",):
                    v += f".{(mi * 37 + len(c)) % 200}"
                if c == "libcublas":
                    v = f"{ma}.{mi}.{1 + mi % 5}.{(mi * 71) % 300}"
                comp_versions[c].append(v)
                comp_times[c].append(t)
        for r, t in zip(releases, times):
            ma, mi = map(int, r.split("."))
            self.add(cv, r, "h" + self.h("cv", r) + "_3", 3, t, [],
                     constrains=[f"__cuda >={ma}", f"cudatoolkit {r}|{r}.*"], noarch="generic",
                     size_scale=0.01, license_=("LicenseRef-NVIDIA-End-User-License-Agreement", "OTHER"))
        nv = ("LicenseRef-NVIDIA-End-User-License-Agreement", "OTHER")
        for c in comps:
            vs, ts = comp_versions[c], comp_times[c]
            base = P(c, vs, times=ts)
            dev = P(c + "-dev", vs, times=ts) if c != "cuda-nvcc" else None
            for v, t in zip(vs, ts):
                rel = cv.version_at(t)
                ma, mi = map(int, rel.split("."))
                cvpin = f"cuda-version >={rel},<{ma}.{mi + 1}.0a0"
                b = "h" + self.h("cu", c, v) + "_0"
                deps = [cvpin] + self.libgcc(t, cxx=True)
                if c in ("libcusolver", "libcusparse") and ma >= 12:
                    deps.append(f"libnvjitlink >={comp_versions['libnvjitlink'][0]},<{ma + 1}.0a0")
                if c == "libcusolver":
                    deps += [f"libcublas >={comp_versions['libcublas'][0]},<{ma + 1}.0a0",
                             f"libcusparse >={comp_versions['libcusparse'][0]},<{ma + 1}.0a0"]
                if c == "cuda-nvcc":
                    deps += ["gcc_impl_linux-64 >=6,<14.0a0", "sysroot_linux-64 >=2.17"]
                self.add(base, v, b, 0, t, deps, size_scale=60 if c.startswith("libcu") else 3, license_=nv)
                if dev:
                    self.add(dev, v, "h" + self.h("cud", c, v) + "_0", 0, t, [f"{c} {v} {b}", cvpin],
                             constrains=[f"{c}-static >={v}"], size_scale=0.2, license_=nv)
        for c in comps:
            if c == "cuda-nvcc":
                continue
            st = P(c + "-static", comp_versions[c], times=comp_times[c])
            for v, t in zip(st.versions, st.times):
                self.add(st, v, "h" + self.h("cus", c, v) + "_0", 0, t, [f"{c}-dev {v}.*"],
                         size_scale=50, license_=nv)
        meta = {"cuda-libraries": [c for c in comps if c != "cuda-nvcc"],
                "cuda-libraries-dev": [c + "-dev" for c in comps if c != "cuda-nvcc"],
                "cuda-compiler": ["cuda-nvcc", "c-compiler", "cxx-compiler"],
                "cuda-runtime": ["cuda-libraries"],
                "cuda-toolkit": ["cuda-compiler", "cuda-libraries", "cuda-libraries-dev"]}
        rel_full = [r + ".0" if r != "12.9" else "12.9.1" for r in releases]
        for m in meta:
            P(m, rel_full, subdir="noarch", times=times)
        for r, full, t in zip(releases, rel_full, times):
            ma = int(r.split(".")[0])
            for m, parts in meta.items():
                deps = []
                for p in parts:
                    if p in self.pkgs and self.pkgs[p].builds and p.startswith(("cuda-lib", "cuda-comp", "cuda-run")):
                        deps.append(f"{p} {full}.*")
                    elif p in ("c-compiler", "cxx-compiler"):
                        deps.append(p)
                    else:
                        deps.append(f"{p} >={self.pkgs[p].version_at(t)},<{ma + 1}.0a0")
                deps = [d for d in deps if not (ma < 12 and "nvjitlink" in d)]
                self.add(self.pkgs[m], full, "ha804496_0", 0, t, [f"cuda-version {r}.*"] + deps, noarch="generic",
                         size_scale=0.01, license_=nv)
        cudnn = P("cudnn", ["8.8.0.121", "8.9.2.26", "8.9.7.29", "9.1.1.17", "9.3.0.75", "9.8.0.87"], start=1672531200)
        nccl = P("nccl", ["2.16.5.1", "2.18.5.1", "2.19.4.1", "2.21.5.1", "2.23.4.1", "2.26.2.1"], start=1672531200)
        for p in (cudnn, nccl):
            for v, t in zip(p.versions, p.times):
                current = cv.version_at(t)
                for r in releases:
                    if cv.times[releases.index(r)] > t:
                        continue
                    if r != current and self.rng.random() < 0.6:
                        continue
                    ma = int(r.split(".")[0])
                    deps = [f"cuda-version >={r},<{ma + 1}"] + self.libgcc(t, cxx=True)
                    if p is cudnn and ma >= 12:
                        deps.append("libcublas")
                        deps.append("cuda-nvrtc")
                    self.add(p, v, f"h{self.h(p.name, v, r)}_0", 0, t, deps, size_scale=150, license_=nv)

    # -- the mapping table's packages and generated ones ------------------------------------

    def table_names(self):
        with open(TABLE, "rb") as f:
            t = tomllib.load(f)
        names = set()
        for e in t.get("id", []):
            for k in ("build", "host", "run"):
                names.update(e.get(k, []))
            for a in e.get("alternative", []):
                for k in ("build", "host", "run"):
                    names.update(a.get(k, []))
        return names

    # Real version histories of the packages the ten-needs benchmark asks for, and of those every
    # Python depends on; others get generated histories.
    KNOWN = {
        "openssl": ["1.1.1k", "1.1.1q", "1.1.1w", "3.0.7", "3.0.12", "3.1.4", "3.2.1", "3.3.2", "3.4.1", "3.5.0"],
        "cmake": [f"3.{m}.{p}" for m in range(18, 32) for p in (0, 2, 5)] + ["4.0.0", "4.0.2"],
        "ninja": ["1.10.2", "1.11.0", "1.11.1", "1.12.1"],
        "libxml2": ["2.9.10", "2.9.12", "2.9.14", "2.10.3", "2.10.4", "2.11.5", "2.11.6", "2.12.6", "2.12.7",
                    "2.13.5", "2.13.8", "2.14.3", "2.14.5", "2.15.1"],
        "zlib": ["1.2.11", "1.2.12", "1.2.13", "1.3", "1.3.1"],
        "libzlib": ["1.2.11", "1.2.12", "1.2.13", "1.3", "1.3.1"],
        "libpng": [f"1.6.{p}" for p in range(37, 48)],
        "libjpeg-turbo": ["2.1.4", "2.1.5.1", "3.0.0", "3.0.3", "3.1.0"],
        "jpeg": ["9d", "9e"],
        "pkg-config": ["0.29.2"],
        "pkgconf": ["1.9.3", "2.1.0", "2.3.0", "2.4.3"],
        "tzdata": ["2021a", "2022a", "2022g", "2023c", "2024a", "2024b", "2025a", "2025b"],
        "ca-certificates": ["2021.10.8", "2022.12.7", "2023.7.22", "2023.11.17", "2024.2.2", "2024.8.30", "2025.1.31"],
        "xz": ["5.2.5", "5.2.6", "5.4.2", "5.4.6", "5.6.3", "5.8.1"],
        "liblzma": ["5.6.3", "5.6.4", "5.8.1"],
        "liblzma-devel": ["5.6.3", "5.6.4", "5.8.1"],
        "bzip2": ["1.0.8"],
        "libffi": ["3.3", "3.4.2", "3.4.4", "3.4.6"],
        "ncurses": ["6.2", "6.3", "6.4", "6.4.20240210", "6.5"],
        "readline": ["8.1", "8.1.2", "8.2"],
        "tk": ["8.6.11", "8.6.12", "8.6.13"],
        "libsqlite": ["3.40.0", "3.42.0", "3.44.2", "3.45.3", "3.46.1", "3.47.2", "3.49.1"],
        "sqlite": ["3.40.0", "3.42.0", "3.44.2", "3.45.3", "3.46.1", "3.47.2", "3.49.1"],
        "libuuid": ["2.32.1", "2.38.1"],
        "libexpat": ["2.5.0", "2.6.2", "2.6.4", "2.7.0"],
        "expat": ["2.5.0", "2.6.2", "2.6.4", "2.7.0"],
        "libnsl": ["2.0.0", "2.0.1"],
        "libxcrypt": ["4.4.36"],
        "x264": ["1!161.3030", "1!163.3060", "1!164.3095"],
        "zstd": ["1.5.2", "1.5.5", "1.5.6", "1.5.7"],
        "tbb": ["2020.2", "2021.7.0", "2021.10.0", "2021.13.0", "2022.0.0"],
    }
    # run package -> development package with the same versions (dev depends on run exactly)
    PAIRS = {"libxml2": "libxml2-devel", "liblzma": "liblzma-devel", "libboost": "libboost-devel",
             "tbb": "tbb-devel", "libegl": "libegl-devel", "libgl": "libgl-devel", "mysql-libs": "mysql-devel",
             "libsystemd0": "libsystemd", "libexpat": "expat", "libzlib": "zlib", "libsqlite": "sqlite",
             "libglib": "glib", "libwebp-base": "libwebp", "libthrift": "thrift-compiler"}
    DEV_FROM = {"libxml2-devel": "2.14.0"}
    CXX = {"libboost", "libabseil", "libgrpc", "libprotobuf", "libarrow-all", "libopencv", "libthrift",
           "re2", "fmt", "spdlog", "yaml-cpp", "jsoncpp", "gtest", "gmock", "benchmark", "flatbuffers",
           "glog", "gflags", "libgdal", "geos", "proj", "qt-main", "qt6-main", "tbb", "snappy", "imath",
           "openexr", "libraw", "libheif", "cmake", "ninja", "doxygen", "icu", "hdf5"}
    NOARCH = {"meson", "eigen", "nlohmann_json", "typescript", "tzdata", "ca-certificates"}

    def real_libraries(self, names, ordered=False):
        """Real names not made by a family yet, as C/C++ libraries or tools with generated
        histories. `names` in the order given when `ordered`, else run packages before their
        development packages, then by name."""
        r = self.rng
        devs = set(self.PAIRS.values())
        order = list(names) if ordered else sorted(names, key=lambda n: (n in devs, n))
        made = []
        for n in order:
            if n in self.pkgs:
                continue
            if n in self.KNOWN:
                vers = self.KNOWN[n]
            elif n in ("libabseil", "re2", "libre2-11"):
                vers = self.vm.calver(r.randint(5, 10))
            else:
                vers = self.vm.semver(r.choices([2, 3, 5, 8, 12, 20], [10, 20, 30, 20, 12, 8])[0])
            dev_of = {d: run for run, d in self.PAIRS.items()}
            if n in dev_of and dev_of[n] in self.pkgs:
                run = self.pkgs[dev_of[n]]
                lo = self.DEV_FROM.get(n)
                idx = [i for i, v in enumerate(run.versions) if lo is None or vkey(v) >= vkey(lo)]
                p = self.pkg(n, [run.versions[i] for i in idx], times=[run.times[i] for i in idx])
            else:
                p = self.pkg(n, vers, subdir="noarch" if n in self.NOARCH else "linux-64",
                             start=T0 if n in self.KNOWN else None)
            made.append(p)
        # Now the records: depend on packages made earlier (a DAG), pinned at the record's time.
        for p in made:
            self.library_records(p, self.lib_names)
            self.lib_names.append(p.name)

    def library_records(self, p, earlier):
        r = self.rng
        n = p.name
        dev_of = {d: run for run, d in self.PAIRS.items()}
        cxx = n in self.CXX or r.random() < 0.3
        # a few fixed dependencies; the rest chosen among earlier packages
        fixed = {"libxml2": ["libzlib", "libiconv", "icu", "liblzma"], "libcurl": ["libzlib", "openssl", "zstd",
                 "libnghttp2", "libssh2", "krb5"], "cmake": ["libcurl", "libuv", "libexpat", "zstd", "ncurses",
                 "rhash", "libzlib"], "libpng": ["libzlib"], "openssl": ["ca-certificates"],
                 "readline": ["ncurses"], "tk": ["libzlib"], "libsqlite": ["libzlib"], "zstd": ["libzlib", "lz4-c", "xz"],
                 "ninja": [], "pkg-config": [], "libjpeg-turbo": [], "libzlib": [], "bzip2": [], "libffi": []}
        if n in fixed:
            deps_names = [d for d in fixed[n] if d in self.pkgs and d in earlier]
        else:
            pool = [e for e in earlier if not e.startswith("_")]
            k = min(len(pool), r.choices([0, 1, 2, 3, 4, 6], [10, 25, 25, 20, 12, 8])[0])
            deps_names = r.sample(pool, k) if k else []
        for v, t in zip(p.versions, p.times):
            for bn, bt in self.rebuilds(t, 3):
                if p.subdir == "noarch":
                    deps = [self.pin(d, bt, "min") for d in deps_names[:2]]
                    self.add(p, v, f"h{self.h('na', n)}_{bn}", bn, bt, deps, noarch="generic")
                    continue
                if n in dev_of and dev_of[n] in self.pkgs:
                    run = self.pkgs[dev_of[n]]
                    rb = run.builds.get(v)
                    deps = [f"{run.name} {v} {rb[-1][0]}"] if rb else [f"{run.name} {v}.*"]
                    deps += self.libgcc(bt)
                else:
                    deps = self.libgcc(bt, cxx=cxx)
                    for d in deps_names:
                        style = r.choices(["x.x", "x", "x.x.x", "min", "any"], [45, 25, 10, 12, 8])[0]
                        deps.append(self.pin(d, bt, style))
                cons = []
                if n == "libzlib":
                    cons.append(f"zlib {v} *_{bn}")
                elif n == "libexpat":
                    cons.append(f"expat {v}.*")
                elif r.random() < 0.06:
                    cons.append(f"{n}-static <0a0")  # real constrains name packages that may not exist
                h = self.h(n, v, len(deps))
                self.add(p, v, f"h{h}_{bn}", bn, bt, deps, constrains=cons)

    def generated(self):
        """Python packages (noarch and compiled), R packages, Perl modules and more C libraries,
        until the channel has the records asked for."""
        r = self.rng
        namer = Namer(r, set(self.pkgs))
        libs = [n for n in self.lib_names if self.pkgs[n].subdir == "linux-64"]
        py_noarch, py_compiled, r_pkgs, perl_pkgs, c_libs = [], [], [], [], []
        # the interpreters R and Perl packages need
        rbase = self.pkg("r-base", [f"{m}.{p}" for m, _, _ in R_BASES for p in range(0, 4)], start=T0)
        for v, t in zip(rbase.versions, rbase.times):
            self.add(rbase, v, f"h{self.h('r', v)}_0", 0, t, self.libgcc(t, cxx=True, fortran=True) +
                     [self.pin("libblas", t, "x"), self.pin("liblapack", t, "x"), self.pin("libcurl", t, "x"),
                      self.pin("readline", t, "x"), self.pin("libpng", t), self.pin("icu", t, "x"), "make", "tzdata",
                      "sed"], size_scale=30)
        sed = self.pkg("sed", ["4.8", "4.9"], start=T0)
        for v, t in zip(sed.versions, sed.times):
            self.add(sed, v, f"h{self.h('sed', v)}_0", 0, t, self.libgcc(t))
        perl = self.pkg("perl", ["5.32.1"], times=[T0 + 86400 * 400])
        for bn in range(0, 8):
            self.add(perl, "5.32.1", f"{bn}_h{self.h('perl', bn)}_perl5", bn, T0 + 86400 * (400 + bn * 100),
                     self.libgcc(T0 + 86400 * (400 + bn * 100)), size_scale=10)
        while self.count < self.target:
            kind = r.choices(["pyn", "pyc", "r", "perl", "c"], [40, 22, 22, 5, 11])[0]
            if kind == "pyn":
                name = namer.python_name()
                p = self.pkg(name, self.vm.semver(r.choices([1, 2, 4, 7, 12, 25], [20, 25, 25, 15, 10, 5])[0])
                             if r.random() < 0.85 else self.vm.calver(r.randint(2, 10)), subdir="noarch")
                dep_pool = py_noarch[-400:] + py_compiled[-150:]
                deps_names = r.sample(dep_pool, min(len(dep_pool), r.choices([0, 1, 2, 3, 5], [15, 30, 25, 20, 10])[0]))
                unix = r.random() < 0.05
                for v, t in zip(p.versions, p.times):
                    minpy = r.choice(["3.6", "3.7", "3.8", "3.9"]) if t < 1700000000 else r.choice(["3.8", "3.9", "3.10"])
                    deps = [f"python >={minpy}"] + [self.pin(d, t, r.choice(["min", "any", "x"])) for d in deps_names]
                    if unix:
                        deps.append("__unix")
                    self.add(p, v, ("pyh707e725_0" if unix else "pyhd8ed1ab_0"), 0, t, deps, noarch="python",
                             size_scale=0.3)
                    if r.random() < 0.12:
                        self.add(p, v, "pyhd8ed1ab_1", 1, t + 86400 * r.randint(10, 200), deps, noarch="python",
                                 size_scale=0.3)
                py_noarch.append(name)
            elif kind == "pyc":
                name = namer.python_name()
                p = self.pkg(name, self.vm.semver(r.choices([1, 2, 3, 5, 8], [20, 30, 25, 15, 10])[0]))
                uses_numpy = r.random() < 0.35
                cxx = r.random() < 0.5
                clibs = r.sample(libs, r.choices([0, 1, 2], [50, 35, 15])[0])
                pydeps = r.sample(py_noarch[-300:], min(len(py_noarch[-300:]), r.choice([0, 1, 2])))
                for v, t in zip(p.versions, p.times):
                    for pyv in self.pythons_at(t):
                        for bn, bt in self.rebuilds(t, 2):
                            deps = self.libgcc(bt, cxx=cxx) + self.py_deps(pyv, bt)
                            if uses_numpy:
                                deps.append(self.pin("numpy", bt, "x") if pyv != "3.8" else "numpy >=1.19,<2.0a0")
                            deps += [self.pin(c, bt, "x.x") for c in clibs]
                            deps += [self.pin(d, bt, "min") for d in pydeps]
                            b = f"py{pyv.replace('.', '')}h{self.h(name, pyv, tuple(clibs), uses_numpy)}_{bn}"
                            self.add(p, v, b, bn, bt, deps, size_scale=0.8)
                py_compiled.append(name)
            elif kind == "r":
                name = namer.r_name()
                compiled = r.random() < 0.45
                p = self.pkg(name, self.vm.r_versions(r.choices([1, 2, 4, 6], [25, 35, 25, 15])[0]))
                rdeps = r.sample(r_pkgs[-500:], min(len(r_pkgs[-500:]), r.choices([0, 1, 2, 4, 7], [20, 25, 25, 20, 10])[0]))
                for v, t in zip(p.versions, p.times):
                    rb = [m for m, a, b in R_BASES if a <= t < b] or ["4.1"]
                    for m in rb if compiled else rb[-1:]:
                        mi = int(m.split(".")[1])
                        deps = [f"r-base >={m},<4.{mi + 1}.0a0"] + [self.pin(d, t, r.choice(["min", "any"])) for d in rdeps]
                        if compiled:
                            deps = self.libgcc(t, cxx=True) + deps
                            self.add(p, v, f"r{m.replace('.', '')}h{self.h(name, m)}_0", 0, t, deps)
                        else:
                            self.add(p, v, f"r{m.replace('.', '')}hc72bb7e_0", 0, t, deps, noarch="generic",
                                     size_scale=0.3)
                r_pkgs.append(name)
            elif kind == "perl":
                name = namer.perl_name()
                p = self.pkg(name, self.vm.perl_versions(r.choices([1, 2, 3], [60, 30, 10])[0]))
                pdeps = r.sample(perl_pkgs[-200:], min(len(perl_pkgs[-200:]), r.choice([0, 0, 1, 2])))
                for v, t in zip(p.versions, p.times):
                    deps = ["perl >=5.32.1,<5.33.0a0 *_perl5"] + [self.pin(d, t, "min") for d in pdeps]
                    bn = r.randint(0, 2)
                    self.add(p, v, f"pl5321h{self.h(name, v)}_{bn}", bn, t, deps, size_scale=0.2)
                perl_pkgs.append(name)
            else:
                name = namer.lib_name()
                p = self.pkg(name, self.vm.semver(r.choices([2, 4, 6, 10], [30, 35, 20, 15])[0]))
                self.library_records(p, libs + c_libs[-300:])
                c_libs.append(name)
        self.generated_counts = {"python noarch": len(py_noarch), "python compiled": len(py_compiled),
                                 "r": len(r_pkgs), "perl": len(perl_pkgs), "c": len(c_libs)}

    def run(self):
        real = self.table_names()
        self.gcc_family()
        # the basics the families pin come first
        basics = ["libzlib", "zlib", "libiconv", "icu", "xz", "liblzma", "liblzma-devel", "lz4-c", "zstd",
                  "openssl", "ca-certificates", "tzdata", "libxml2", "libxml2-devel", "libnghttp2", "libssh2",
                  "krb5", "libcurl", "libuv", "rhash", "libexpat", "expat", "ncurses", "readline", "tk",
                  "libsqlite", "sqlite", "libuuid", "libnsl", "libxcrypt", "libffi", "bzip2", "libpng",
                  "tbb", "tbb-devel"]
        self.real_libraries(basics, ordered=True)
        self.blas_family()
        self.python_family()
        self.llvm_family()
        self.cuda_family()
        self.real_libraries(real | {"libllvm17"})
        self.generated()
        return self


# ---------------------------------------------------------------------------------------------
# writing

def dump_record(out, fn, rec, last):
    out.append(f'  {json.dumps(fn)}: {{\n')
    keys = sorted(rec)
    for i, k in enumerate(keys):
        v = rec[k]
        sep = "," if i < len(keys) - 1 else ""
        if isinstance(v, list):
            if v:
                items = ",\n".join(f"      {json.dumps(x)}" for x in v)
                out.append(f'    "{k}": [\n{items}\n    ]{sep}\n')
            else:
                out.append(f'    "{k}": []{sep}\n')
        else:
            out.append(f'    "{k}": {json.dumps(v)}{sep}\n')
    out.append("  }" + ("" if last else ",") + "\n")


def write_repodata(path, subdir, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write('{\n "info": {\n  "subdir": %s\n },\n' % json.dumps(subdir))
        for key in ("packages", "packages.conda"):
            f.write(f' "{key}": {{\n')
            items = sorted(data[key].items())
            buf = []
            for i, (fn, rec) in enumerate(items):
                dump_record(buf, fn, rec, i == len(items) - 1)
                if len(buf) > 20000:
                    f.write("".join(buf))
                    buf = []
            f.write("".join(buf))
            f.write(" },\n")
        f.write(' "removed": [],\n "repodata_version": 1\n}\n')
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------
# checking

SPEC = re.compile(r"^(\S+)(?:\s+(\S+))?(?:\s+(\S+))?$")
TERM = re.compile(r"^(>=|<=|==|!=|>|<|=)?([^<>=!][^<>=]*)$")  # conda epochs: 1!161.3030


def term_ok(term, v):
    m = TERM.match(term)
    if not m:
        raise ValueError(term)
    op, want = m.groups()
    if want.endswith("*"):
        pre = want.rstrip("*").rstrip(".")
        starts = v == pre or v.startswith(pre + ".") or (not want.endswith(".*") and v.startswith(pre))
        return not starts if op == "!=" else starts
    if op in (None, "=="):
        return v == want if op == "==" or not op else False
    if op == "=":
        return v == want or v.startswith(want + ".")
    a, b = vkey(v), vkey(want)
    return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b, "!=": a != b}[op]


def version_ok(spec_version, v):
    """conda's version part of a MatchSpec: | of , of terms."""
    return any(all(term_ok(t, v) for t in branch.split(",")) for branch in spec_version.split("|"))


def check(channel):
    """Problems with a channel given as {subdir: repodata dict}; [] when none. Every depends
    name (but virtual __ packages) must be a package of the channel with a record the spec
    matches, by version and build; constrains may name anything, as real ones do."""
    records = {}
    for subdir, data in channel.items():
        for key in ("packages", "packages.conda"):
            for fn, rec in data.get(key, {}).items():
                records.setdefault(rec["name"], set()).add((rec["version"], rec["build"]))
    problems = []
    memo = {}
    for subdir, data in channel.items():
        for key in ("packages", "packages.conda"):
            ext = ".tar.bz2" if key == "packages" else ".conda"
            for fn, rec in data.get(key, {}).items():
                if fn != f"{rec['name']}-{rec['version']}-{rec['build']}{ext}":
                    problems.append(f"{subdir}/{fn}: the file name is not name-version-build{ext}")
                if rec.get("subdir") != subdir:
                    problems.append(f"{subdir}/{fn}: subdir {rec.get('subdir')!r}")
                for spec in rec.get("depends", []):
                    ok = memo.get(spec)
                    if ok is None:
                        ok = spec_problem(spec, records)
                        memo[spec] = ok
                    if ok:
                        problems.append(f"{subdir}/{fn}: depends {spec!r}: {ok}")
                for spec in rec.get("constrains", []):
                    if not SPEC.match(spec):
                        problems.append(f"{subdir}/{fn}: constrains {spec!r} is not a MatchSpec")
    return problems


def spec_problem(spec, records):
    """'' when some record matches the spec, else why not."""
    m = SPEC.match(spec)
    if not m:
        return "not a MatchSpec"
    name, ver, build = m.groups()
    if VIRTUAL.match(name):
        return ""
    have = records.get(name)
    if not have:
        return f"no package {name}"
    try:
        for v, b in have:
            if ver is not None and not version_ok(ver, v):
                continue
            if build is not None and not (b == build or ("*" in build and re.fullmatch(
                    build.replace(".", "\\.").replace("*", ".*"), b))):
                continue
            return ""
    except ValueError as e:
        return f"cannot read the version term {e}"
    return f"no record of {name} matches"


def stats(channel, out_dir=None):
    n = {s: sum(len(d.get(k, {})) for k in ("packages", "packages.conda")) for s, d in channel.items()}
    both = 0
    for d in channel.values():
        bz = {fn[:-8] for fn in d.get("packages", {})}
        cd = {fn[:-6] for fn in d.get("packages.conda", {})}
        both += len(bz & cd)
    names = {rec["name"] for d in channel.values() for k in ("packages", "packages.conda") for rec in d.get(k, {}).values()}
    line = f"records: {sum(n.values())} ({', '.join(f'{s} {c}' for s, c in n.items())}); names: {len(names)}; " \
           f"stems in both packages and packages.conda: {both}"
    if out_dir:
        sizes = []
        for s in channel:
            p = os.path.join(out_dir, s, "repodata.json")
            sizes.append(f"{s}/repodata.json {os.path.getsize(p) / 1e6:.1f} MB")
            if os.path.exists(p + ".zst"):
                sizes.append(f"{s}/repodata.json.zst {os.path.getsize(p + '.zst') / 1e6:.1f} MB")
        line += "\n" + "; ".join(sizes)
    return line, names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="the channel folder to write (or to read with --check)")
    ap.add_argument("--records", type=int, default=DEFAULT_RECORDS, help="about how many records (default %(default)s)")
    ap.add_argument("--seed", type=int, default=SEED, help="random seed (default %(default)s)")
    ap.add_argument("--zst", action="store_true", help="also write repodata.json.zst (needs the zstd command)")
    ap.add_argument("--zst-level", type=int, default=3, help="zstd level (default %(default)s)")
    ap.add_argument("--check", action="store_true", help="read OUT back and verify it; write nothing")
    a = ap.parse_args()

    if a.check:
        channel = {}
        for s in ("linux-64", "noarch"):
            with open(os.path.join(a.out, s, "repodata.json"), encoding="utf-8") as f:
                channel[s] = json.load(f)
        problems = check(channel)
        line, _ = stats(channel, a.out)
        print(line)
        for p in problems[:50]:
            print("problem:", p)
        print(f"{len(problems)} problems")
        return 1 if problems else 0

    t0 = time.monotonic()
    g = Gen(a.seed, a.records).run()
    channel = g.records
    problems = check(channel)
    if problems:
        for p in problems[:50]:
            print("problem:", p, file=sys.stderr)
        print(f"gen-conda-channel: {len(problems)} problems; nothing written", file=sys.stderr)
        return 1
    t1 = time.monotonic()
    for s in ("linux-64", "noarch"):
        write_repodata(os.path.join(a.out, s, "repodata.json"), s, channel[s])
    t2 = time.monotonic()
    if a.zst:
        z = shutil.which("zstd")
        if not z:
            print("gen-conda-channel: --zst: no zstd command; repodata.json.zst not written", file=sys.stderr)
        else:
            for s in ("linux-64", "noarch"):
                p = os.path.join(a.out, s, "repodata.json")
                subprocess.run([z, "-q", "-f", f"-{a.zst_level}", "-T0", p, "-o", p + ".zst"], check=True)
    t3 = time.monotonic()
    line, names = stats(channel, a.out)
    print(line)
    print(f"generated names: {g.generated_counts}")
    table = g.table_names()
    missing = sorted(table - names)
    print(f"names of mappings/conda-forge.toml: {len(table) - len(missing)}/{len(table)} in the channel"
          + (f" (missing: {', '.join(missing)})" if missing else ""))
    real = os.path.join(HERE, "..", "..", "shared", "data", "conda", "conda-forge-numpy-linux-64.json")
    if os.path.exists(real):
        with open(real, encoding="utf-8") as f:
            j = json.load(f)
        seen = {r["name"] for k in ("packages", "packages.conda") for r in j.get(k, {}).values()}
        missing = sorted(seen - names)
        print(f"names of {os.path.relpath(real)}: {len(seen) - len(missing)}/{len(seen)} generated"
              + (f" (missing: {', '.join(missing)})" if missing else ""))
    print(f"time: generate {t1 - t0:.1f} s, write {t2 - t1:.1f} s" + (f", zstd {t3 - t2:.1f} s" if a.zst else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
