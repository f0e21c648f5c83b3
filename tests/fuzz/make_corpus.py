#!/usr/bin/env python3
"""Writes the fuzz harnesses' inputs (tests/fuzz/README.md):

  corpus/<harness>/seed-*         seeds, from the project's fixtures (tests/data, mappings/,
                                  examples/) and the strings its unit tests use, trimmed small;
  regressions/<harness>/<name>    inputs reproducing the findings of issue 13's probe, generated.

corpus/solv_cache/ is not written here: its seeds are .solv files the harness's first load wrote
(libsolv's format, so they come from a build).

Run it from anywhere; it rewrites the seed files and the generated regression inputs it owns and
leaves every other file (the inputs libFuzzer's findings were saved as) alone. Deterministic.
"""
import hashlib
import json
import lzma
import random
import re
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = ROOT / "tests" / "data"
CORPUS = HERE / "corpus"
REGRESSIONS = HERE / "regressions"
MAX_SEED = 16 * 1024  # bytes per seed: libFuzzer mutates small inputs far better


def put(harness, data, name=None):
    if isinstance(data, str):
        data = data.encode()
    data = data[:MAX_SEED]
    d = CORPUS / harness
    d.mkdir(parents=True, exist_ok=True)
    name = name or "seed-" + hashlib.sha1(data).hexdigest()[:12]
    (d / name).write_bytes(data)


def literals(path):
    """The C++ string literals of a source file (simple escapes only)."""
    text = Path(path).read_text(errors="replace")
    out = []
    for m in re.finditer(r'(?<![A-Za-z0-9_])"((?:[^"\\\n]|\\.)*)"', text):
        s = m.group(1)
        if "\\x" in s or "\\u" in s:
            continue
        s = s.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
        out.append(s)
    return out


def lines(path):
    return [l for l in Path(path).read_text().splitlines() if l.strip() and not l.startswith("#")]


def cut(text, limit, boundary):
    """The start of `text`, cut at the last `boundary` before `limit` bytes."""
    if len(text) <= limit:
        return text
    at = text.rfind(boundary, 0, limit)
    return text[: at if at > 0 else limit]


def seeds():
    rng = random.Random(13)
    # declarations
    for p in sorted((DATA / "declare").rglob("*.toml")) + sorted((ROOT / "examples").glob("*/*.toml")):
        if p.name in ("pyproject.toml", "extdeps.toml"):
            put("declaration", p.read_bytes())
    # DepURLs, specifiers, ranges, markers: the unit tests' strings
    declare_tests = ROOT / "tests" / "core" / "declare"
    urls = sorted({s for f in declare_tests.glob("*.cc") for s in literals(f)
                   if re.match(r"(dep|pkg|virtual):", s)})
    for s in urls[:120]:
        put("depurl", s)
    ranges = sorted({s for s in literals(declare_tests / "range_test.cc")
                     if s and re.fullmatch(r"[-0-9a-zA-Z.*,<>=!~+ ]+", s) and re.search(r"[0-9]", s)})
    for s in ranges[:80]:
        put("range", s + "\n" + rng.choice(["3.4", "1.2.3rc1", "4.0.0", "2.0.post1", "1!1.0"]))
    markers = sorted({s for s in literals(declare_tests / "marker_test.cc")
                      if re.search(r"(==|!=|<|>|\bin\b|and|or)", s) and len(s) > 3})
    for s in markers[:80]:
        put("marker", s)
    # versions: triples of real versions of each scheme
    version_lists = {
        "version_deb": lines(DATA / "versions" / "deb.txt"),
        "version_pep440": lines(DATA / "versions" / "pep440.txt"),
        "version_nix": lines(DATA / "versions" / "nix.txt"),
        "version_conda": [s for s in literals(ROOT / "tests/providers/conda/conda_version_test.cc")
                          if re.fullmatch(r"[0-9A-Za-z.!_+*-]+", s) and re.search(r"[0-9]", s)],
        "version_rpm": [s for s in literals(ROOT / "tests/core/version/segments_test.cc")
                        if re.fullmatch(r"[0-9A-Za-z.:~^_+-]+", s) and re.search(r"[0-9]", s)],
    }
    pkgconfig = [l.split("Version:", 1)[1].strip() for p in (DATA / "pkgconf").rglob("*.pc")
                 for l in p.read_text().splitlines() if l.startswith("Version:")]
    version_lists["version_rpm"] += pkgconfig
    for h, vs in version_lists.items():
        vs = [v.split("#")[0].strip() for v in vs]
        vs = [v for v in vs if v]
        for _ in range(min(60, len(vs))):
            put(h, "\n".join(rng.choice(vs) for _ in range(3)))
    # apt: Packages lists (plain and compressed), their damaged forms, dpkg status
    apt = DATA / "apt"
    for p in sorted((apt / "codecs").iterdir()) + sorted((apt / "corrupt").iterdir()):
        put("apt_packages", p.read_bytes())
    lists = apt / "bookworm" / "var" / "lib" / "apt" / "lists"
    for p in sorted(lists.iterdir()):
        if p.suffix == ".xz":
            put("apt_packages", cut(lzma.decompress(p.read_bytes()), MAX_SEED, b"\n\n"))
        elif p.suffix == ".lz4":
            try:
                plain = subprocess.run(["lz4cat", str(p)], capture_output=True, check=True).stdout
                put("apt_packages", cut(plain, MAX_SEED, b"\n\n"))
            except (OSError, subprocess.CalledProcessError):
                pass
    status = (apt / "bookworm" / "var" / "lib" / "dpkg" / "status").read_bytes()
    stanzas = status.split(b"\n\n")
    for i in range(0, min(len(stanzas), 120), 12):
        put("dpkg_status", b"\n\n".join(stanzas[i:i + 12]) + b"\n")
    for p in sorted((apt / "corrupt").iterdir()):
        put("dpkg_status", p.read_bytes())
    # conda: the channel fixture, its records one by one, and MatchSpecs
    repodata = (DATA / "conda" / "channel" / "linux-64" / "repodata.json").read_text()
    put("conda_repodata", repodata)
    doc = json.loads(repodata)
    specs = set()
    for key in ("packages", "packages.conda"):
        for fn, rec in (doc.get(key) or {}).items():
            put("conda_repodata", json.dumps({"info": doc.get("info", {}), key: {fn: rec}}))
            specs.update(rec.get("depends") or [])
            specs.update(rec.get("constrains") or [])
    specs.update(s for s in literals(ROOT / "tests/providers/conda/matchspec_test.cc")
                 if re.match(r"[a-z_][a-z0-9_.-]*([ =<>!~\[]|$)", s) and len(s) > 2)
    for s in sorted(specs)[:150]:
        put("conda_matchspec", s + "\n" + rng.choice(["1.2.3", "3.10.4", "1.26.0", "2.0a0"]) +
            "\n" + rng.choice(["py310_0", "h5eee18b_1", "openblas"]))
    # nix: indexes and profiles
    for p in ("nix-env-qaP.json", "nix-search.json", "packages.json"):
        put("nix_index", cut((DATA / "nix" / p).read_text(), MAX_SEED, "\n  },"))
    for p in sorted((DATA / "nix" / "profiles").rglob("*.json")):
        put("nix_profile", p.read_bytes())
    # pypi: simple pages and core metadata
    for p in sorted((DATA / "pypi" / "simple").rglob("index.json")):
        put("pypi_json_page", p.read_bytes())
    for p in sorted((DATA / "pypi" / "simple").rglob("index.html")):
        put("pypi_html_page", p.read_bytes())
    put("pypi_html_page", '<!DOCTYPE html><html><body>\n<a href="../../packages/x/x-1.0-py3-none-any.whl#sha256=ab"'
        ' data-requires-python="&gt;=3.8" data-dist-info-metadata="sha256=cd">x-1.0-py3-none-any.whl</a>\n'
        '<a href="https://files.example/x-0.9.tar.gz" data-yanked="broken &amp; &#39;old&#x27;">x-0.9.tar.gz</a>\n'
        '<A HREF=\'x-1.1-py3-none-any.whl\' data-core-metadata=true>x</A></body></html>\n')
    metas = sorted((DATA / "pypi" / "packages").glob("*.metadata"))
    for p in metas[::4]:
        put("pypi_metadata", p.read_bytes())
    # mapping tables: the test tables and the start of the shipped ones
    for p in sorted((DATA / "mapping").rglob("*.toml")):
        put("mapping_table", p.read_bytes())
    for p in sorted((ROOT / "mappings").glob("*.toml")):
        put("mapping_table", cut(p.read_text(), 6000, "\n[["))
    # rosdep tables: written here in REP 111's forms (rosdep's own base.yaml is in ../shared, which
    # the project does not copy): a list, a string, per-release rules with '*' and null, an
    # installer key with `packages`, a rule for another installer, an OS wildcard.
    put("rosdep_import", "zlib:\n  debian: [zlib1g-dev]\n  fedora: [zlib-devel]\n  ubuntu: [zlib1g-dev]\n"
        "curl:\n  debian: libcurl4-openssl-dev curl\n")
    put("rosdep_import", "boost:\n  debian:\n    buster: [libboost-all-dev]\n    bookworm: null\n"
        "    '*': [libboost-dev]\n  ubuntu:\n    '*': [libboost-all-dev]\n")
    put("rosdep_import", "python3-foo:\n  debian:\n    pip:\n      packages: [foo]\n"
        "python3-yaml:\n  debian:\n    apt:\n      packages: [python3-yaml]\n"
        "eigen:\n  '*':\n    apt:\n      packages: libeigen3-dev\n"
        "none:\n  debian:\n    bookworm: []\n")

    # PEP 804 mapping files: written here in the PEP's form (the real ones are in ../shared): specs as
    # a list and per category, specs_from, an id without packages, a repeated id (one alternative
    # each), a manager's commands.
    put("pep804_import", '{"name": "Debian", "description": "test", "package_managers": [{"name": "apt-get", '
        '"commands": {"install": {"command": ["apt-get", "install", "{}"]}, "query": null}}], "mappings": ['
        '{"id": "dep:generic/zlib", "description": "zlib", "specs": {"build": ["zlib1g-dev"], '
        '"host": ["zlib1g-dev"], "run": ["zlib1g"]}}, {"id": "dep:generic/libz", "specs_from": "dep:generic/zlib"}, '
        '{"id": "dep:generic/cuda", "specs": []}, {"id": "dep:generic/make", "specs": ["make"]}, '
        '{"id": "dep:generic/make", "specs": ["make-guile"]}]}\n')
    put("pep804_import", '{"mappings": [{"id": "dep:virtual/compiler/c", "specs": ["gcc"]}, '
        '{"id": "dep:generic/openssl", "specs": {"host": ["libssl-dev"], "run": "libssl3"}}]}\n')

    # configuration files: [tool.extdeps] with a key of each option kind, and a user file's form
    put("config_file", '[tool.extdeps]\nmanagers = ["apt", "conda"]\nmapping-dirs = ["maps"]\nplugin-timeout = 30\n'
        'detect-ttl = "3600"\nmax-download-size = "512M"\nallow-insecure-http = true\noffline = "no"\n'
        'conda-channels = ["conda-forge", "bioconda"]\nconda-frontend = "micromamba"\nnix-timeout = 60.5\n'
        'pacman-config = "etc/pacman.conf"\npacman-dbs = ["core.db", "/srv/extra.db"]\n'
        'dnf-repos = ["https://mirror.example/fedora/41/"]\nhomebrew-api = "formula.json"\nroot = "image"\n')
    put("config_file", '[project]\nname = "p"\n[external]\nhost-requires = ["dep:generic/zlib"]\n'
        '[tool.extdeps]\nsystem = "fedora:41"\npython-version = "3.12"\ndownload-deadline = 1.5\n'
        'max-download-total = 2147483648\npypi-frontend = "uv"\nnix-frontend = "nix-env"\n')

# Findings of issue 13's probe, owned by other branches until their fixes merge (h13a: stack
# overflows, blow-ups and exceptions in parsers; h13b: percent-decoding, the .solv cache).
def regressions():
    def reg(harness, name, data):
        d = REGRESSIONS / harness
        d.mkdir(parents=True, exist_ok=True)
        (d / name).write_bytes(data.encode() if isinstance(data, str) else data)

    # 50,000 '|' alternatives
    reg("conda_matchspec", "or-50000", "numpy " + "|".join(["1.0"] * 50000))
    # 100,000 nested parentheses
    reg("marker", "parens-100000", "(" * 100000 + "os_name == 'posix'" + ")" * 100000)
    # 40,000 dotted key parts in TOML
    dotted = ".".join(["a"] * 40000)
    reg("declaration", "dotted-40000", "[external]\n" + dotted + " = 1\n")
    reg("mapping_table", "dotted-40000", dotted + " = 1\n")
    # a chain of dependency groups, each including the next: 10,000 (short names keep the file
    # under 300 KB) overflow the stack under ASan; the probe used 50,000
    def name(i):
        s = ""
        while True:
            s = "0123456789abcdefghijklmnopqrstuvwxyz"[i % 36] + s
            i //= 36
            if i == 0:
                return "g" + s
    n = 10000
    body = "".join(f'{name(i)}=[{{include-group="{name(i + 1)}"}}]\n' for i in range(n))
    reg("declaration", "include-chain-10000",
        "[external.dependency-groups]\n" + body + f'{name(n)}=["dep:generic/zlib"]\n')


if __name__ == "__main__":
    seeds()
    regressions()
