#!/usr/bin/env python3
"""Writes a Homebrew world for bench/run.sh --homebrew: DIR/formula.json (the formula API's array,
as formulae.brew.sh serves it) and DIR/root/opt/homebrew (a prefix with a Cellar of installed kegs
and their INSTALL_RECEIPT.json, opt/ links, var/homebrew/linked/, bin/brew).

The formulae: those the ten needs of bench/homebrew-ten-deps map to (mappings/homebrew.toml),
with the dependencies homebrew-core gives them, and N filler formulae (default 50,000) in families
of 40 whose dependencies reach earlier members and the core formulae, with bottles for the recent
macOS releases (some only for older ones, some relocatable, a few without), uses_from_macos with
and without `since`, variations for Linux, keg-only ones, aliases and a few disabled. A few hundred
are installed, some older than the index's. Fixed seed: the same N gives the same bytes.

Usage: bench/gen-homebrew-api.py DIR [--formulae N]
"""
import argparse
import hashlib
import json
import os
import random

TAGS = ["arm64_sequoia", "arm64_sonoma", "arm64_ventura", "sonoma", "ventura", "x86_64_linux"]
# name: (version, revision, [dependencies], [build_dependencies], [uses_from_macos], keg_only)
CORE = {
    "ca-certificates": ("2024-11-26", 0, [], [], [], False),
    "openssl@3": ("3.4.0", 0, ["ca-certificates"], [], [], True),
    "zlib": ("1.3.1", 0, [], [], [], True),
    "xz": ("5.6.3", 0, [], [], [], False),
    "zstd": ("1.5.6", 0, ["lz4", "xz"], ["cmake"], ["zlib"], False),
    "lz4": ("1.10.0", 0, [], [], [], False),
    "icu4c@76": ("76.1", 0, [], ["pkgconf"], [], True),
    "libxml2": ("2.13.5", 0, ["icu4c@76"], ["pkgconf"], ["zlib"], True),
    "libpng": ("1.6.44", 0, [], [], ["zlib"], False),
    "jpeg-turbo": ("3.0.4", 0, [], ["cmake"], [], False),
    "jpeg": ("9f", 0, [], [], [], False),
    "libnghttp2": ("1.64.0", 0, [], ["pkgconf"], [], False),
    "libidn2": ("2.3.7", 0, ["libunistring"], ["pkgconf"], [], False),
    "libunistring": ("1.3", 0, [], [], [], False),
    "libssh2": ("1.11.1", 0, ["openssl@3"], ["pkgconf"], ["zlib"], False),
    "brotli": ("1.1.0", 0, [], ["cmake"], [], False),
    "rtmpdump": ("2.4-20151223", 3, ["openssl@3"], [], ["zlib"], False),
    "curl": ("8.11.1", 0, ["brotli", "libidn2", "libnghttp2", "libssh2", "openssl@3", "rtmpdump", "zstd"], ["pkgconf"], ["zlib"], True),
    "readline": ("8.2.13", 0, [], [], ["ncurses"], True),
    "ncurses": ("6.5", 0, [], [], [], True),
    "sqlite": ("3.47.1", 0, ["readline"], [], ["zlib"], True),
    "cmake": ("3.31.2", 0, [], [], [], False),
    "ninja": ("1.12.1", 0, [], [], [], False),
    "pkgconf": ("2.3.0", 1, [], [], [], False),
}
INSTALLED = {"ca-certificates": "2024-09-24", "openssl@3": "3.3.2", "zlib": "1.3.1", "xz": "5.6.3",
             "lz4": "1.10.0", "zstd": "1.5.6", "ncurses": "6.5", "readline": "8.2.13", "cmake": "3.30.5"}


def sha(*parts):
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def bottles(name, pkg_version, tags, relocatable):
    files = {}
    for t in tags:
        if relocatable:
            cellar = ":any"
        elif t.endswith("linux"):
            cellar = "/home/linuxbrew/.linuxbrew/Cellar"
        else:
            cellar = "/opt/homebrew/Cellar" if t.startswith("arm64_") else "/usr/local/Cellar"
        s = sha(name, pkg_version, t)
        image = name.replace("@", "/").replace("+", "x")
        files[t] = {"cellar": cellar, "url": f"https://ghcr.io/v2/homebrew/core/{image}/blobs/sha256:{s}", "sha256": s}
    return {"stable": {"rebuild": 0, "root_url": "https://ghcr.io/v2/homebrew/core", "files": files}} if files else {}


def formula(name, version, revision, deps, build, uses, keg, tags, relocatable, aliases=(), disabled=False,
            bounds=None, variations=None):
    pkg_version = f"{version}_{revision}" if revision else version
    return {
        "name": name, "full_name": name, "tap": "homebrew/core", "oldnames": [], "aliases": list(aliases),
        "versioned_formulae": [], "desc": f"generated formula {name}", "license": "MIT",
        "homepage": f"https://example.invalid/{name}",
        "versions": {"stable": version, "head": None, "bottle": bool(tags)},
        "urls": {"stable": {"url": f"https://example.invalid/{name}-{version}.tar.gz", "tag": None, "revision": None,
                            "using": None, "checksum": sha(name, version)}},
        "revision": revision, "version_scheme": 0,
        "bottle": bottles(name, pkg_version, tags, relocatable),
        "pour_bottle_only_if": None, "keg_only": keg,
        "keg_only_reason": {"reason": ":provided_by_macos", "explanation": ""} if keg else None,
        "options": [], "build_dependencies": build, "dependencies": deps, "test_dependencies": [],
        "recommended_dependencies": [], "optional_dependencies": [],
        "uses_from_macos": uses, "uses_from_macos_bounds": bounds if bounds is not None else [{} for _ in uses],
        "requirements": [], "conflicts_with": [], "conflicts_with_reasons": [], "link_overwrite": [],
        "caveats": None, "installed": [], "linked_keg": None, "pinned": False, "outdated": False,
        "deprecated": False, "deprecation_date": None, "deprecation_reason": None,
        "disabled": disabled, "disable_date": "2024-10-14" if disabled else None,
        "disable_reason": "unmaintained" if disabled else None,
        "post_install_defined": False, "service": None, "tap_git_head": "0" * 40,
        "ruby_source_path": f"Formula/{name[0]}/{name}.rb", "ruby_source_checksum": {"sha256": sha("rb", name)},
        "variations": variations or {},
    }


def receipt(name, version, deps):
    return {
        "homebrew_version": "4.4.11", "used_options": [], "unused_options": [], "built_as_bottle": True,
        "poured_from_bottle": True, "loaded_from_api": True, "installed_on_request": True, "changed_files": [],
        "time": 1733000000, "source_modified_time": 1732000000, "compiler": "clang", "aliases": [],
        "runtime_dependencies": [{"full_name": d, "version": v, "declared_directly": True} for d, v in deps],
        "source": {"path": f"/opt/homebrew/Library/Taps/homebrew/homebrew-core/Formula/{name[0]}/{name}.rb",
                   "tap": "homebrew/core", "tap_git_head": "0" * 40, "spec": "stable",
                   "versions": {"stable": version.split("_")[0], "head": None, "version_scheme": 0}},
        "arch": "arm64",
        "built_on": {"os": "Macintosh", "os_version": "macOS 14", "cpu_family": "arm_blizzard_avalanche"},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--formulae", type=int, default=50000)
    a = ap.parse_args()
    rng = random.Random(725)
    out = []
    for name, (version, revision, deps, build, uses, keg) in sorted(CORE.items()):
        out.append(formula(name, version, revision, deps, build, uses, keg, TAGS, not keg,
                           aliases=["openssl"] if name == "openssl@3" else ["pkg-config"] if name == "pkgconf" else []))
    base = sorted(n for n in INSTALLED if n != "cmake")  # fillers link the base; the needs' formulae stay to plan
    fillers = []
    for i in range(a.formulae):
        name = f"f{i:06d}" if i % 9 else f"lib{i:06d}"
        version = f"{rng.randint(0, 30)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
        if i % 17 == 0:
            version += rng.choice(["a", "b", "-p1", "rc1"])
        revision = rng.choice([0, 0, 0, 1, 2])
        family_start = i - i % 40
        deps, build = [], []
        for _ in range(rng.randint(0, 5)):
            if i > family_start and rng.random() < 0.7:
                deps.append(fillers[rng.randrange(family_start, i)])
            else:
                deps.append(rng.choice(base))
        if rng.random() < 0.3:
            build.append(rng.choice(["cmake", "pkgconf", "ninja"]))
        uses, bounds = [], []
        if rng.random() < 0.2:
            uses.append("zlib")
            bounds.append({"since": "ventura"} if rng.random() < 0.3 else {})
        r = rng.random()
        tags = TAGS if r < 0.8 else TAGS[2:] if r < 0.9 else ["arm64_ventura", "ventura"] if r < 0.97 else []
        variations = {"x86_64_linux": {"dependencies": sorted(set(deps)) + ["zlib"]}} if rng.random() < 0.1 else None
        out.append(formula(name, version, revision, sorted(set(deps)), build, uses, rng.random() < 0.05, tags,
                           rng.random() < 0.6, disabled=i % 211 == 0, bounds=bounds, variations=variations))
        fillers.append(name)
    out.sort(key=lambda f: f["name"])
    os.makedirs(a.dir, exist_ok=True)
    with open(os.path.join(a.dir, "formula.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))

    prefix = os.path.join(a.dir, "root/opt/homebrew")
    for d in ("Cellar", "opt", "var/homebrew/linked", "bin"):
        os.makedirs(os.path.join(prefix, d), exist_ok=True)
    with open(os.path.join(prefix, "bin/brew"), "w") as f:
        f.write("#!/bin/sh\nexit 1\n")
    by_name = {f["name"]: f for f in out}
    installed = dict(INSTALLED)
    todo = rng.sample(fillers, min(300, len(fillers)))
    while todo:  # consistent: what an installed formula depends on is installed too
        name = todo.pop()
        if name in installed or by_name[name]["disabled"]:
            continue
        f = by_name[name]
        installed[name] = f"{f['versions']['stable']}_{f['revision']}" if f["revision"] else f["versions"]["stable"]
        todo.extend(f["dependencies"])
    for name, version in sorted(installed.items()):
        keg = os.path.join(prefix, "Cellar", name, version)
        os.makedirs(keg, exist_ok=True)
        deps = [(d, installed.get(d, "0")) for d in by_name[name]["dependencies"]]
        with open(os.path.join(keg, "INSTALL_RECEIPT.json"), "w") as f:
            json.dump(receipt(name, version, deps), f, indent=2)
        for link, target in ((os.path.join(prefix, "opt", name), f"../Cellar/{name}/{version}"),
                             (os.path.join(prefix, "var/homebrew/linked", name), f"../../../Cellar/{name}/{version}")):
            if by_name[name]["keg_only"] and "linked" in link:
                continue
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(target, link)
    print(f"{a.dir}: {len(out)} formulae, {len(installed)} installed")


if __name__ == "__main__":
    main()
