#!/usr/bin/env python3
"""modules.tsv (module, id, comment package, note) from pkgconfig.toml; plan.json: module -> providing package(s)
from the bookworm Contents hits in pc_contents.txt / pc_other.txt (see README for the grep that made them)."""
import collections, json, re, tomllib
WORK = '/var/tmp/pc-audit-work'
TOML = '/work/main/mappings/pkgconfig.toml'
d = tomllib.load(open(TOML, 'rb'))
txt = open(TOML).read()
cm = {}
for b in re.split(r'\n\[\[id\]\]\n', txt)[1:]:
    m = re.search(r'id = "([^"]+)"', b); c = re.search(r"# \.pc files of bookworm's (.*)", b)
    if m and c: cm[m.group(1)] = c.group(1).strip()
with open(f'{WORK}/modules.tsv', 'w') as f:
    for e in d['id']:
        for mod in e.get('modules', []):
            f.write(f"{mod}\t{e['id']}\t{cm.get(e['id'], '')}\t{e.get('note', '')}\n")
idx = collections.defaultdict(list)
for fn in ['pc_contents.txt', 'pc_other.txt']:
    for line in open(f'{WORK}/{fn}'):
        src, rest = line.rstrip('\n').split('\t', 1)
        path, pkgs = rest.rsplit(None, 1)
        name = path.rsplit('/', 1)[1][:-3]
        for p in pkgs.split(','):
            p = p.split('/')[-1]
            if p.endswith('-dbg'): continue
            if (path, p) not in [(a, b) for a, b, _ in idx[name]]:
                idx[name].append((path, p, src))
# module shipped by several packages and no package named in the toml comment: the usual default
default = {'libcurl': 'libcurl4-openssl-dev', 'krb5': 'libkrb5-dev', 'krb5-gssapi': 'libkrb5-dev', 'libssh': 'libssh-dev',
 'luajit': 'libluajit-5.1-dev', 'Qt5Core': 'qtbase5-dev', 'Qt5Gui': 'qtbase5-dev', 'Qt5Widgets': 'qtbase5-dev',
 'openblas': 'libopenblas-pthread-dev', 'blas-openblas': 'libopenblas-pthread-dev', 'lapack-openblas': 'libopenblas-pthread-dev',
 'PETSc': 'libpetsc-real3.18-dev', 'petsc': 'libpetsc-real3.18-dev', 'hdf5': 'libhdf5-dev'}
# names that exist only as update-alternatives links (not in Contents)
special = {'hdf5': ('usr/lib/x86_64-linux-gnu/pkgconfig/hdf5-serial.pc', 'libhdf5-dev', 'alternatives: hdf5.pc -> hdf5-serial.pc (libhdf5-dev postinst, priority 20)'),
 'blas': ('usr/lib/x86_64-linux-gnu/pkgconfig/blas-netlib.pc', 'libblas-dev', 'alternatives: blas.pc -> blas-netlib.pc (libblas-dev postinst, priority 10)'),
 'lapack': ('usr/lib/x86_64-linux-gnu/pkgconfig/lapack-netlib.pc', 'liblapack-dev', 'alternatives: lapack.pc -> lapack-netlib.pc (liblapack-dev postinst)')}
out = []
for l in open(f'{WORK}/modules.tsv'):
    mod, id_, c, note = l.rstrip('\n').split('\t')
    if mod in special:
        path, p, how = special[mod]
        out.append(dict(module=mod, id=id_, comment_pkg=c, role='primary', pkg=p, path=path, how=how)); continue
    h = idx.get(mod, [])
    if not h:
        out.append(dict(module=mod, id=id_, comment_pkg=c, role='primary', pkg='', path='',
                        how=note or 'no such .pc in bookworm main Contents-amd64/-all')); continue
    pk = []; [pk.append(p) for _, p, _ in h if p not in pk]
    prim = c if c in pk else default.get(mod, pk[0] if len(pk) == 1 else None)
    assert prim, (mod, pk)
    for path, p, src in h:
        if p == prim and not any(o['module'] == mod and o['id'] == id_ and o['role'] == 'primary' for o in out):
            out.append(dict(module=mod, id=id_, comment_pkg=c, role='primary', pkg=p, path=path, how=src))
    for path, p, src in h:
        if p != prim and not any(o['module'] == mod and o['id'] == id_ and o['pkg'] == p for o in out):
            out.append(dict(module=mod, id=id_, comment_pkg=c, role='alternative', pkg=p, path=path, how=src))
json.dump(out, open(f'{WORK}/plan.json', 'w'), indent=0)
open(f'{WORK}/pkgs.txt', 'w').write('\n'.join(sorted(set(o['pkg'] for o in out if o['pkg']))) + '\n')
print(len(out), 'rows')
