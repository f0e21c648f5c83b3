#!/usr/bin/env python3
"""Rebuilds fedora-packages.txt: the Fedora package names mappings/fedora.toml uses that some
Fedora (rawhide) spec file builds, or that a package built by one provides.

usage: trim_fedora_specs.py FEDORA_RPM_SPECS_GIT_DIR [--report]
  (a clone of github.com/major/fedora-rpm-specs: specs/NAME.spec, a mirror of the spec file of
  every package in Fedora's dist-git, rawhide branch; a bare clone will do, the files are read
  from HEAD with git)

What a spec builds, read from its text (rpm is not run, so only what the text spells):
- the main package, `Name:`, with macros expanded: %{name}, %{version}, and what the spec defines
  with %global/%define, plus %{nil} and %{python3_pkgversion} (3); %{?x:text} gives text where x
  is defined, %{!?x:text} where it is not. Each spec is read twice, once with the latest
  definition of a macro before the line winning and once with the first, and the names of both
  readings count: a %global under %if and the one under its %else are both seen (ffmpeg's
  pkg_suffix -free, python3.14's pkgname python3). A spec with no Name: line (fonts that
  %fontpkg spells) or whose Name still holds a macro after that (golang's %{goname}) is
  reported on stderr and skipped;
- each `%package X` (NAME-X) and `%package -n X` (X), expanded likewise. A subpackage counts
  even under %if, %bcond or an arch condition: a name that exists under some condition is still
  a Fedora name (the table is a list of names dnf can be asked for, not a build log);
- the `Provides:` of each of these packages (and %py_provides X, and the Provides: lines in the
  body of a multi-line macro the package's preamble calls, as java-25-openjdk's java_rpo), kept
  apart ("provided by"): dnf resolves a provide as well as a name. A provide is kept where it is a plain package-like
  name, or an rpm capability such as pkgconfig(foo) that the table names.

fedora-packages.txt holds, sorted: each name the table uses (entry-level and Fedora-numbered
releases, every alternative and category; the el8/el9 tables are RHEL+EPEL and are not read)
that a spec builds (`name`), or that only a provide supplies (`name PACKAGE`, PACKAGE providing
it); and, for each runtime name in a `host` list, the -devel package the same spec builds beside
it (NAME-devel, libNAME-devel, or STEM-devel for NAME = STEM-libs), so that a test can tell a
host list that lacks its headers. The names are copied as the specs spell them; only the choice
is ours. --report also prints each entry's names that no spec builds or provides. Run from the
repository root.
"""
import re
import subprocess
import sys
import tomllib

OUT = "tests/data/mapping/indexes/fedora-packages.txt"
TABLE = "mappings/fedora.toml"
CATEGORIES = ("build", "host", "run")
DEVEL_LIKE = ("-devel", "-headers", "-static")
PLAIN = re.compile(r"^[A-Za-z0-9_.+-]+$")
CAPABILITY = re.compile(r"^[A-Za-z0-9_.+-]+\([^()\s]+\)$")
BUILTIN = {"nil": "", "python3_pkgversion": "3", "python3_other_pkgversion": "3", "_isa": "", "dist": "",
           "?_isa": ""}


def is_devel(name):
    return name.endswith(DEVEL_LIKE) or name.startswith("pkgconfig(")


def devel_candidates(name):
    """The -devel names a spec building NAME may build beside it, in the order tried."""
    out = [name + "-devel", "lib" + name + "-devel"]
    if name.endswith("-libs"):
        out.append(name[:-len("-libs")] + "-devel")
    return out


class Spec:
    def __init__(self, path, first_wins=False):
        self.path = path
        self.first_wins = first_wins
        self.macros = dict(BUILTIN)
        self.packages = []  # binary package names, the main one first
        self.provides = {}  # provided name -> the package providing it
        self.macro_provides = {}  # a multi-line macro -> the Provides: lines of its body
        self.unexpanded = None
        self.subpackages = False  # past the first %package: Name is settled

    def expand(self, text, depth=0):
        if depth > 20 or "%" not in text:
            return text
        out, i = [], 0
        while i < len(text):
            c = text[i]
            if c != "%":
                out.append(c)
                i += 1
                continue
            if text.startswith("%%", i):
                out.append("%")
                i += 2
                continue
            if i + 1 < len(text) and text[i + 1] == "{":
                j, level = i + 2, 1
                while j < len(text) and level:
                    level += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                if level:
                    out.append(text[i:])
                    break
                body = text[i + 2:j - 1]
                out.append(self.expand_braced(body, text[i:j], depth))
                i = j
                continue
            m = re.match(r"%(\??)([A-Za-z_][A-Za-z0-9_]*)", text[i:])
            if m:
                name = m.group(2)
                if name in self.macros:
                    out.append(self.expand(self.macros[name], depth + 1))
                elif m.group(1):
                    pass
                else:
                    out.append(m.group(0))
                i += len(m.group(0))
                continue
            out.append(c)
            i += 1
        return "".join(out)

    def expand_braced(self, body, whole, depth):
        m = re.match(r"^(!?)(\??)(!?)([A-Za-z_][A-Za-z0-9_]*)(?::(.*))?$", body, re.S)
        if not m:
            return whole
        negate = bool(m.group(1) or m.group(3))
        cond = bool(m.group(2))
        name, alt = m.group(4), m.group(5)
        defined = name in self.macros
        if cond:
            if alt is not None:
                return self.expand(alt, depth + 1) if defined != negate else ""
            return self.expand(self.macros[name], depth + 1) if defined and not negate else ""
        if defined and alt is None:
            return self.expand(self.macros[name], depth + 1)
        return whole

    def read(self, text):
        current = None  # the package the preamble lines belong to
        body = None  # (macro, open braces) while in a multi-line %define body
        for raw in text.splitlines():
            line = raw.strip()
            if body:
                if re.match(r"^Provides\s*:", line, re.I):
                    self.macro_provides.setdefault(body[0], []).append(line.split(":", 1)[1])
                level = body[1] + line.count("{") - line.count("}")
                body = (body[0], level) if level > 0 or line.endswith("\\") else None
                continue
            m = re.match(r"^%(?:global|define)\s+([A-Za-z_][A-Za-z0-9_]*)(?:\(\S*\))?\s+(.*)$", line)
            if m:
                level = line.count("{") - line.count("}")
                if level > 0 or line.endswith("\\"):
                    body = (m.group(1), level)
                if not (self.first_wins and m.group(1) in self.macros) and m.group(1) not in ("name", "version"):
                    self.macros[m.group(1)] = m.group(2).strip()
                continue
            m = re.match(r"^%bcond_without\s+(\S+)", line)
            if m:
                self.macros.setdefault("with_" + m.group(1), "1")
                continue
            m = re.match(r"^(Name|Version)\s*:\s*(\S+)", line, re.I)
            if m and not self.subpackages and m.group(1).lower() == "version":
                self.macros.setdefault("version", m.group(2))
                continue
            if m and not self.subpackages:
                name = self.expand(m.group(2))
                if "%" in name or not name:
                    self.unexpanded = m.group(2)
                    continue
                if not (self.first_wins and self.packages):
                    self.macros["name"] = name
                self.packages.append(name)
                current = name
                continue
            m = re.match(r"^%package\s+(.*)$", line)
            if m and self.packages:
                args = self.expand(m.group(1)).split()
                if "-n" in args:
                    k = args.index("-n")
                    sub = args[k + 1] if k + 1 < len(args) else ""
                else:
                    rest = [a for a in args if not a.startswith("-")]
                    sub = self.macros["name"] + "-" + rest[0] if rest else ""
                self.subpackages = True
                if sub and "%" not in sub:
                    self.packages.append(sub)
                    current = sub
                else:
                    current = None
                continue
            if re.match(r"^%(description|prep|build|install|check|files|changelog|post|pre|generate_buildrequires)\b",
                        line):
                current = None
                continue
            if current is None:
                continue
            m = re.match(r"^Provides\s*:\s*(.*)$", line, re.I)
            if m:
                self.provide(self.expand(m.group(1)), current)
                continue
            m = re.match(r"^%\{?\??py_provides\s+([^}\s]+)", line)
            if m:
                self.provide(self.expand(m.group(1)), current)
                continue
            m = re.match(r"^%\{?\??([A-Za-z_][A-Za-z0-9_]*)", line)
            if m and m.group(1) in self.macro_provides:
                for p in self.macro_provides[m.group(1)]:
                    self.provide(self.expand(p.replace("%{?1}", "").replace("%1", "")), current)

    def provide(self, text, package):
        tokens = re.findall(r"[^\s,]+\([^()]*\)|[^\s,]+", text)
        skip = False
        for t in tokens:
            if skip:
                skip = False
                continue
            if t in ("=", "<", ">", "<=", ">="):
                skip = True
                continue
            if "%" in t or t[0].isdigit() and not PLAIN.match(t):
                continue
            if PLAIN.match(t) or CAPABILITY.match(t):
                self.provides.setdefault(t, package)


def table_names(path):
    """(all names, {id: names}, host lists): entry level and Fedora-numbered releases."""
    with open(path, "rb") as f:
        table = tomllib.load(f)
    per_id, host_lists = {}, []
    for e in table["id"]:
        parts = list(e.get("alternative", [e]))
        for rel, r in e.get("release", {}).items():
            if rel.isdigit():
                parts += r.get("alternative", [r])
        names = set()
        for a in parts:
            for c in CATEGORIES:
                names.update(a.get(c, []))
            if a.get("host"):
                host_lists.append((e["id"], a["host"]))
        per_id[e["id"]] = (names, bool(e.get("unverified")))
    return set().union(*(n for n, _ in per_id.values())), per_id, host_lists


def main():
    git = sys.argv[1]
    head = subprocess.run(["git", "-C", git, "log", "-1", "--format=%H %cs"], capture_output=True, text=True,
                          check=True).stdout.split()
    files = [f for f in subprocess.run(["git", "-C", git, "ls-tree", "-r", "--name-only", "HEAD", "specs/"],
                                       capture_output=True, text=True, check=True).stdout.splitlines()
             if f.endswith(".spec")]
    batch = subprocess.run(["git", "-C", git, "cat-file", "--batch"], input="".join(f"HEAD:{f}\n" for f in files).encode(),
                           capture_output=True, check=True).stdout
    built, provided, spec_of, specs = {}, {}, {}, {}
    pos, skipped = 0, []
    for f in files:
        header_end = batch.index(b"\n", pos)
        size = int(batch[pos:header_end].split()[2])
        text = batch[header_end + 1:header_end + 1 + size].decode("utf-8", "replace")
        pos = header_end + 1 + size + 1
        s = Spec(f)
        s.read(text)
        if not s.packages:
            skipped.append((f, s.unexpanded))
            continue
        first = Spec(f, first_wins=True)
        first.read(text)
        s.packages += [p for p in first.packages if p not in s.packages]
        for p, by in first.provides.items():
            s.provides.setdefault(p, by)
        specs[f] = s
        for p in s.packages:
            built.setdefault(p, f)
        for p, by in s.provides.items():
            provided.setdefault(p, by)
    for f, why in skipped:
        print(f"{f}: Name not expanded ({why})", file=sys.stderr)

    names, per_id, host_lists = table_names(TABLE)
    lines = {}
    for n in names:
        if n in built:
            lines[n] = n
        elif n in provided:
            lines[n] = f"{n} {provided[n]}"
    candidates = 0
    for _, host in host_lists:
        if any(is_devel(n) for n in host):
            continue
        for n in host:
            if n not in built:
                continue
            same = set(specs[built[n]].packages)
            for c in devel_candidates(n):
                if c in same and c not in lines:
                    lines[c] = c
                    candidates += 1
    binaries = len(built)
    with open(OUT, "w", encoding="utf-8") as out:
        out.write(f"# major/fedora-rpm-specs @ {head[0]} ({head[1]}), specs/*.spec: of the {binaries}\n")
        out.write(f"# binary package names its {len(files)} specs build (Name:, %package; {len(specs)} read, {len(skipped)}\n")
        out.write("# without a Name: or with an unknown macro in it skipped), those mappings/fedora.toml\n")
        out.write("# names (entry level and numbered releases, not el8/el9), and the\n")
        out.write("# -devel packages the spec of a name in a host list builds beside it. `NAME PACKAGE`: no\n")
        out.write("# spec builds NAME, PACKAGE provides it (Provides:). Rebuilt by trim_fedora_specs.py.\n")
        for n in sorted(lines):
            out.write(lines[n] + "\n")
    print(OUT, len(lines), "names,", candidates, "-devel candidates;", binaries, "binaries of", len(specs), "specs")
    if "--report" in sys.argv:
        for i, (ns, unverified) in sorted(per_id.items()):
            missing = sorted(n for n in ns if n not in built and n not in provided)
            via = sorted(n for n in ns if n not in built and n in provided)
            if missing or via:
                print(f"{i}: missing {missing} provided {[(n, provided[n]) for n in via]}")
        for i, host in host_lists:
            if any(is_devel(n) for n in host):
                continue
            found = [(n, c) for n in host if n in built for c in devel_candidates(n)
                     if c in specs[built[n]].packages]
            other = sorted({p for n in host if n in built for p in specs[built[n]].packages if p.endswith("-devel")})
            print(f"HOST {i}: {host} candidates {found} spec-devels {other[:6]}")


main()
