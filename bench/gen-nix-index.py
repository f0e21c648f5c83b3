#!/usr/bin/env python3
"""Writes a deterministic, nixpkgs-sized index for the nix benchmark.

    bench/gen-nix-index.py OUT.json [--attributes N] [--seed S]

OUT.json is what a nixpkgs channel publishes as packages.json: {"version": 2, "packages": {...}},
one object per attribute path with the fields `nix-env -qaP --json --meta` prints (name, pname,
version, system, outputName, outputs, meta) and the meta nixpkgs fills in (available, broken,
insecure, unfree, unsupported, description, homepage, license, maintainers, name,
outputsToInstall, platforms, position, sometimes mainProgram and longDescription), compact as
`jq -c` writes it. Compress it with `brotli -q 9 OUT.json` for packages.json.br.

Names: every attribute mappings/nixpkgs.toml names, with the versioned attributes that share
their pname (openssl_3_3, gcc12, python312, cudaPackages_11.*) and the package sets nix-env
recurses into (python311Packages, python312Packages, haskellPackages, perlPackages, xorg,
cudaPackages*), filled up to N attributes (default 100,000) with generated names. About 2 % of
the attributes are broken, 4 % unavailable (unfree or insecure) and 3 % for darwin only, as in a
real channel. Python 3 standard library only; a fixed seed, so the same arguments give the same
bytes.
"""

import argparse
import json
import os
import random
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "mappings", "nixpkgs.toml")

LINUX = ["aarch64-linux", "armv5tel-linux", "armv6l-linux", "armv7a-linux", "armv7l-linux", "i686-linux",
         "loongarch64-linux", "m68k-linux", "microblaze-linux", "microblazeel-linux", "mips-linux", "mips64-linux",
         "mips64el-linux", "mipsel-linux", "powerpc64-linux", "powerpc64le-linux", "riscv32-linux",
         "riscv64-linux", "s390-linux", "s390x-linux", "x86_64-linux"]
DARWIN = ["x86_64-darwin", "i686-darwin", "aarch64-darwin", "armv7a-darwin"]
UNIX = LINUX + DARWIN + ["i686-freebsd", "x86_64-freebsd", "aarch64-netbsd", "x86_64-netbsd", "x86_64-openbsd",
                         "x86_64-solaris", "x86_64-cygwin", "i686-cygwin"]
ALL = UNIX + ["aarch64-genode", "i686-genode", "x86_64-genode", "js-ghcjs", "mmix-mmixware", "x86_64-redox",
              "wasm64-wasi", "wasm32-wasi", "x86_64-windows", "i686-windows", "aarch64-windows"]
LICENSES = [
    {"deprecated": False, "free": True, "fullName": "MIT License", "redistributable": True, "shortName": "mit",
     "spdxId": "MIT", "url": "https://spdx.org/licenses/MIT.html"},
    {"deprecated": False, "free": True, "fullName": "GNU General Public License v3.0 or later",
     "redistributable": True, "shortName": "gpl3Plus", "spdxId": "GPL-3.0-or-later",
     "url": "https://spdx.org/licenses/GPL-3.0-or-later.html"},
    {"deprecated": False, "free": True, "fullName": "Apache License 2.0", "redistributable": True,
     "shortName": "asl20", "spdxId": "Apache-2.0", "url": "https://spdx.org/licenses/Apache-2.0.html"},
    {"deprecated": False, "free": True, "fullName": "BSD 3-clause \"New\" or \"Revised\" License",
     "redistributable": True, "shortName": "bsd3", "spdxId": "BSD-3-Clause",
     "url": "https://spdx.org/licenses/BSD-3-Clause.html"},
]
UNFREE = {"deprecated": False, "free": False, "fullName": "Unfree", "redistributable": False, "shortName": "unfree"}
SYLLABLES = ["ka", "lo", "mi", "ne", "tor", "vex", "zu", "qua", "bri", "dol", "fen", "gar", "hul", "jin", "pex",
             "rum", "sil", "tav", "wex", "yor"]
WORDS = ["library", "tool", "for", "the", "fast", "simple", "portable", "parser", "client", "server", "bindings",
         "implementation", "of", "a", "modern", "C++", "Python", "Haskell", "framework", "compression", "format"]


def version(rng):
    r = rng.random()
    if r < 0.6:
        return "%d.%d.%d" % (rng.randint(0, 12), rng.randint(0, 40), rng.randint(0, 30))
    if r < 0.75:
        return "%d.%d" % (rng.randint(0, 30), rng.randint(0, 99))
    if r < 0.85:
        return "0-unstable-%04d-%02d-%02d" % (rng.randint(2019, 2024), rng.randint(1, 12), rng.randint(1, 28))
    if r < 0.92:
        return "%d.%d.%d-rc%d" % (rng.randint(0, 5), rng.randint(0, 20), rng.randint(0, 9), rng.randint(1, 4))
    return "%d.%d.%d.%d" % (rng.randint(0, 9), rng.randint(0, 9), rng.randint(0, 99), rng.randint(0, 999))


def gen_name(rng):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


def entry(rng, attr, pname, ver, outputs=None, kind=None):
    outputs = outputs or (["out"] if rng.random() < 0.7 else ["out", "dev"] if rng.random() < 0.6 else
                          ["bin", "dev", "out", "man", "doc"])
    r = rng.random()
    if kind is None:
        kind = "broken" if r < 0.02 else "unfree" if r < 0.05 else "insecure" if r < 0.06 else \
               "darwin" if r < 0.09 else "ok"
    platforms = DARWIN if kind == "darwin" else rng.choice([ALL, UNIX, LINUX, LINUX + DARWIN])
    meta = {
        "available": kind in ("ok", "darwin"),
        "broken": kind == "broken",
        "description": " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))).capitalize(),
        "homepage": "https://%s.example.org/" % pname,
        "insecure": kind == "insecure",
        "license": UNFREE if kind == "unfree" else rng.choice(LICENSES),
        "maintainers": [{"email": "%s@example.org" % m, "github": m, "githubId": rng.randint(1000, 9999999), "name": m}
                        for m in (gen_name(rng) for _ in range(rng.randint(0, 3)))],
        "name": "%s-%s" % (pname, ver),
        "outputsToInstall": [outputs[0]],
        "platforms": platforms,
        "position": "pkgs/by-name/%s/%s/package.nix:%d" % (pname[:2], pname, rng.randint(10, 300)),
        "unfree": kind == "unfree",
        "unsupported": False,
    }
    if kind == "insecure":
        meta["knownVulnerabilities"] = ["CVE-%d-%d" % (rng.randint(2015, 2024), rng.randint(1000, 99999))]
    if rng.random() < 0.3:
        meta["mainProgram"] = pname
    if rng.random() < 0.1:
        meta["longDescription"] = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60)))
    return attr, {"name": "%s-%s" % (pname, ver), "outputName": outputs[0], "outputs": {o: None for o in outputs},
                  "pname": pname, "system": "x86_64-linux", "version": ver, "meta": meta}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--attributes", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=725804)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    packages = {}

    def add(attr, pname, ver, outputs=None, kind=None):
        if attr not in packages:
            k, v = entry(rng, attr, pname, ver, outputs, kind)
            packages[k] = v

    # Every attribute the table names, available, at a version that meets bench/nix-ten-deps.
    with open(TABLE, "rb") as f:
        table = tomllib.load(f)
    named = set()
    for e in table["id"]:
        for alt in [e] + e.get("alternative", []):
            for cat in ("build", "host", "run"):
                named.update(alt.get(cat, []))
    real_versions = {"cmake": "3.29.6", "openssl": "3.0.14", "libxml2": "2.12.7", "gcc": "13.3.0",
                     "clang": "17.0.6", "ninja": "1.11.1", "pkg-config": "0.29.2", "zlib": "1.3.1",
                     "libpng": "1.6.43", "libjpeg": "3.0.3"}
    pnames = {"gcc": "gcc-wrapper", "clang": "clang-wrapper", "pkg-config": "pkg-config-wrapper"}
    for attr in sorted(named):
        last = attr.split(".")[-1]
        add(attr, pnames.get(attr, last), real_versions.get(attr, version(rng)), ["out", "dev"], "ok")
    # Attributes that share a pname with a named one: versions in range for some needs only.
    for attr, pname, ver in [("openssl_3_3", "openssl", "3.3.1"), ("openssl_1_1", "openssl", "1.1.1w"),
                             ("gcc12", "gcc-wrapper", "12.4.0"), ("gcc14", "gcc-wrapper", "14.1.0"),
                             ("python312", "python3", "3.12.4"), ("cmake-minimal", "cmake", "3.29.6"),
                             ("libxml2_13", "libxml2", "2.13.1")]:
        add(attr, pname, ver, ["out", "dev"], "insecure" if attr == "openssl_1_1" else "ok")
    for cuda_set, rel in [("cudaPackages_11", "11.8.89"), ("cudaPackages_12_1", "12.1.105"),
                          ("cudaPackages_12_4", "12.4.131")]:
        for comp in ["cuda_nvcc", "cuda_cudart", "cuda_cupti", "cuda_nvrtc", "libcublas", "libcufft", "libcurand",
                     "libcusolver", "libcusparse", "libnvjitlink", "cudnn", "nccl", "cudatoolkit"]:
            add("%s.%s" % (cuda_set, comp), comp, rel, ["out", "dev", "lib"], "unfree")
    # Package sets nix-env recurses into, then generated top-level names, up to N.
    sets = ["python311Packages", "python312Packages", "haskellPackages", "perlPackages", "rPackages",
            "nodePackages", "xorg", "ocamlPackages", "emacsPackages", "vimPlugins"]
    i = 0
    while len(packages) < a.attributes:
        name = gen_name(rng) + ("" if rng.random() < 0.7 else "-" + gen_name(rng))
        where = rng.random()
        if where < 0.55:
            s = rng.choice(sets)
            prefix = {"python311Packages": "python3.11-", "python312Packages": "python3.12-",
                      "perlPackages": "perl5.38.2-", "haskellPackages": "", "rPackages": "r-"}.get(s, "")
            add("%s.%s" % (s, name), prefix + name, version(rng))
        else:
            add(name, name, version(rng))
            if rng.random() < 0.03:  # a versioned attribute beside it
                add("%s_%d" % (name.replace("-", "_"), i % 7), name, version(rng))
        i += 1
    with open(a.out, "w") as f:
        f.write('{"version":2,"packages":')
        json.dump(packages, f, separators=(",", ":"))
        f.write("}")
    print("%s: %d attributes, %.1f MB" % (a.out, len(packages), os.path.getsize(a.out) / 1e6), file=sys.stderr)


if __name__ == "__main__":
    main()
