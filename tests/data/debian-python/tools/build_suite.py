#!/usr/bin/env python3
"""Build the Debian bookworm python-native-extension truth table.
Reads only the private apt state via APT_CONFIG=/var/tmp/aptsrc/etc/apt.conf."""
import os, re, subprocess, json, sys
os.environ['APT_CONFIG'] = '/var/tmp/aptsrc/etc/apt.conf'
OUT = '/var/tmp/notes/debian-python-suite'
WORK = '/var/tmp/aptsrc/work'

def sh(*a):
    return subprocess.run(a, capture_output=True, text=True, check=True).stdout

def stanzas(text):
    """Return list of (raw_lines, dict) for each deb822 stanza."""
    res = []
    for block in re.split(r'\n\s*\n', text.strip()):
        if not block.strip():
            continue
        d = {}; order = []; k = None
        for line in block.split('\n'):
            if line[:1] in (' ', '\t') and k:
                d[k] += '\n' + line
            else:
                k, _, v = line.partition(':')
                d[k] = v.strip(); order.append(k)
        res.append((block, d, order))
    return res

def raw_fields(block, keep):
    out = []; cur = None
    for line in block.split('\n'):
        if line[:1] in (' ', '\t'):
            if cur in keep: out.append(line)
        else:
            cur = line.partition(':')[0]
            if cur in keep: out.append(line)
    return '\n'.join(out) + '\n'

def vercmp(a, op, b):
    return subprocess.run(['dpkg', '--compare-versions', a, op, b]).returncode == 0

def split_rel(s):
    s = re.sub(r'\s+', ' ', s or '').strip()
    return [e.strip() for e in s.split(',') if e.strip()]

def alt_names(entry):
    return [re.split(r'[\s(\[<:]', a.strip())[0] for a in entry.split('|')]

# ---- filtering rules for Build-Depends ----
PY = re.compile(r'^(python3?(-.*)?|python3\.\d+.*|libpython.*|pypy.*|cython.*|pybuild.*|py-cpuinfo|virtualenv|towncrier|sip-tools)$')
PKGHELPER = re.compile(r'^(debhelper.*|dh-.*|dpkg-dev|chrpath|fdupes|quilt|patch|pkg-kde-tools|pkg-php-tools|openstack-pkg-tools|gem2deb)$')
DOC = re.compile(r'^(.*-doc|sphinx.*|texlive.*|docbook.*|doxygen.*|asciidoc.*|help2man|txt2man|xmlto|latexmk|dvipng|dvisvgm|cm-super.*|tex-gyre|sgml-data|libjs-.*|node-.*)$')
BUILDTOOL = re.compile(r'^(pkg-config|pkgconf|cmake|meson|ninja-build|swig\d*|gfortran.*|gcc.*|g\+\+.*|clang.*|cargo|rustc|bison|flex|libtool|autoconf|automake|autotools-dev|protobuf-compiler|protobuf-c-compiler|nasm|yasm|patchelf|gettext|sharutils|re2c|scons|bazel.*|ccache)$')

def classify_bd(entry):
    """Return (keep:bool, reason) for one Build-Depends entry."""
    prof = re.findall(r'<([^>]*)>', entry)
    if prof and any(re.search(r'!no(check|doc)\b', p) for p in prof):
        return False, 'profile:' + ' '.join('<%s>' % p for p in prof)
    names = alt_names(entry)
    if all(PY.match(n) for n in names):
        return False, 'python'
    if all(PKGHELPER.match(n) for n in names):
        return False, 'packaging-helper'
    if all(DOC.match(n) for n in names):
        return False, 'documentation'
    return True, ''

def kind_kept(entry):
    names = alt_names(entry)
    if any(n.endswith('-dev') or '-dev-' in n or n.startswith('lib') for n in names):
        return 'lib'
    if any(BUILDTOOL.match(n) for n in names):
        return 'tool'
    return 'other'

# Section of every binary package (to recognise shared-library packages not named lib*)
SECTION = json.load(open(os.path.join(WORK, 'sections.json')))

NOT_SHLIB = re.compile(r'(^libjs-|^python|^\$\{|-(dev|bin|data|common|tools|utils|doc)$)')
def is_shlib_pkg(n):
    """lib* package names (incl. virtual ones like libblas.so.3), or packages in
    Section libs/oldlibs such as zlib1g / ocl-icd-libopencl1; never libjs-*,
    python*, *-data, *-common, *-dev, *-bin, *-doc, *-tools, *-utils."""
    if NOT_SHLIB.search(n):
        return False
    if n.startswith('lib'):
        return True
    return SECTION.get(n) in ('libs', 'oldlibs')

def main():
    sel = [l.split() for l in open(os.path.join(WORK, 'sel.txt')) if l.strip() and not l.startswith('#')]
    rows = []; dropped = []; flags = []; odd = []
    for src, pypi, binpkg in sel:
        # binary: candidate version
        pol = sh('apt-cache', 'policy', binpkg)
        cand = re.search(r'Candidate: (\S+)', pol).group(1)
        bst = [s for s in stanzas(sh('apt-cache', 'show', binpkg)) if s[1].get('Version') == cand][0]
        bblock, b, _ = bst
        bsrc = b.get('Source', binpkg)
        m = re.match(r'(\S+)(?: \((\S+)\))?', bsrc)
        src_name, srcver = m.group(1), m.group(2) or cand
        assert src_name == src, (src, src_name)
        sst = [s for s in stanzas(sh('apt-cache', 'showsrc', '--only-source', src)) if s[1].get('Version') == srcver]
        if not sst:
            raise SystemExit('no source stanza %s %s' % (src, srcver))
        sblock, s, _ = sst[0]
        # all python3 binaries with extensions built by this source
        binaries = [x.strip() for x in s.get('Binary', '').replace('\n', ' ').split(',')]
        # Build-Depends + Build-Depends-Arch
        keep = []
        for fld in ('Build-Depends', 'Build-Depends-Arch'):
            for e in split_rel(s.get(fld)):
                k, why = classify_bd(e)
                if k:
                    keep.append(e)
                    kk = kind_kept(e)
                    if kk == 'other':
                        flags.append((pypi, src, e))
                else:
                    dropped.append((pypi, src, fld, e, why))
        # run deps
        run = []
        for e in split_rel(b.get('Depends')):
            names = alt_names(e)
            if all(is_shlib_pkg(n) for n in names):
                run.append(e)
        rows.append(dict(pypi=pypi, src=src, version=s['Version'], binary=binpkg,
                         bd=keep, rd=run, binver=cand, binaries=binaries))
        with open(os.path.join(OUT, 'raw', src + '.txt'), 'w') as f:
            f.write(raw_fields(sblock, {'Package', 'Source', 'Version', 'Depends', 'Build-Depends', 'Build-Depends-Arch'}))
        with open(os.path.join(OUT, 'raw', binpkg + '.txt'), 'w') as f:
            f.write(raw_fields(bblock, {'Package', 'Source', 'Version', 'Depends', 'Build-Depends', 'Build-Depends-Arch'}))
    with open(os.path.join(OUT, 'suite.tsv'), 'w') as f:
        f.write('pypi_name\tdebian_source\tversion\tpython3_binary\tbuild_depends_native\trun_depends_libs\n')
        for r in rows:
            f.write('\t'.join([r['pypi'], r['src'], r['version'], r['binary'], ';'.join(r['bd']), ';'.join(r['rd'])]) + '\n')
    with open(os.path.join(OUT, 'build_depends_dropped.tsv'), 'w') as f:
        f.write('pypi_name\tdebian_source\tfield\tentry\treason\n')
        for d in dropped: f.write('\t'.join(d) + '\n')
    with open(os.path.join(OUT, 'build_depends_kept_nonlib_flags.tsv'), 'w') as f:
        f.write('pypi_name\tdebian_source\tentry\n')
        for d in flags: f.write('\t'.join(d) + '\n')
    json.dump(rows, open(os.path.join(WORK, 'rows.json'), 'w'), indent=1)
    print(len(rows))

if __name__ == '__main__':
    main()
