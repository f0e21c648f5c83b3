#!/usr/bin/env python3
"""Build audit.tsv from plan.json (module -> package/path), pkginfo.json (apt-cache show of the
candidate versions) and the extracted .pc files under WORK/x/<package>/."""
import json, os, re, sys
WORK = '/var/tmp/pc-audit-work'
OUT = '/var/tmp/notes/pc-audit/audit.tsv'
plan = json.load(open(f'{WORK}/plan.json'))
info = json.load(open(f'{WORK}/pkginfo.json'))

# extra rows: other providers of the alternatives-managed blas.pc / lapack.pc
EXTRA = [
 ('blas', 'dep:virtual/interface/blas', 'usr/lib/x86_64-linux-gnu/openblas-pthread/pkgconfig/blas-openblas.pc', 'libopenblas-pthread-dev', 'alternatives: blas.pc -> openblas-pthread/pkgconfig/blas-openblas.pc (priority 100)'),
 ('blas', 'dep:virtual/interface/blas', 'usr/lib/x86_64-linux-gnu/pkgconfig/blas-atlas.pc', 'libatlas-base-dev', 'alternatives: blas.pc -> blas-atlas.pc'),
 ('lapack', 'dep:virtual/interface/lapack', 'usr/lib/x86_64-linux-gnu/openblas-pthread/pkgconfig/lapack-openblas.pc', 'libopenblas-pthread-dev', 'alternatives: lapack.pc -> openblas-pthread/pkgconfig/lapack-openblas.pc (priority 100)'),
 ('lapack', 'dep:virtual/interface/lapack', 'usr/lib/x86_64-linux-gnu/pkgconfig/lapack-atlas.pc', 'libatlas-base-dev', 'alternatives: lapack.pc -> lapack-atlas.pc'),
]
for m, i, p, k, how in EXTRA:
    plan.append(dict(module=m, id=i, comment_pkg='', role='alternative', pkg=k, path=p, how=how))

def resolve_link(pkg, path):
    """follow symlinks inside the package tree; if the target is in another package, find it in x/*"""
    full = os.path.join(WORK, 'x', pkg, path)
    hops = []
    for _ in range(10):
        if not os.path.islink(full):
            return pkg, full, hops
        t = os.readlink(full)
        rel = t.lstrip('/') if t.startswith('/') else os.path.normpath(os.path.join(os.path.dirname(path), t))
        hops.append(t)
        path = rel
        full = os.path.join(WORK, 'x', pkg, rel)
        if not os.path.lexists(full):
            for other in sorted(os.listdir(os.path.join(WORK, 'x'))):
                cand = os.path.join(WORK, 'x', other, rel)
                if os.path.lexists(cand):
                    pkg, full = other, cand
                    break
    return pkg, full, hops

def pc_version(fn):
    vars_ = {'pc_sysrootdir': '', 'pcfiledir': os.path.dirname(fn)}
    raw = None
    for line in open(fn, encoding='utf-8', errors='replace'):
        line = line.split('#', 1)[0].strip()
        m = re.match(r'^([A-Za-z0-9_.]+)\s*=\s*(.*)$', line)
        if m:
            vars_[m.group(1)] = m.group(2).strip(); continue
        m = re.match(r'^Version\s*:\s*(.*)$', line)
        if m:
            raw = m.group(1).strip()
    if raw is None:
        return None, None
    val = raw
    for _ in range(20):
        new = re.sub(r'\$\{([A-Za-z0-9_.]+)\}', lambda mm: vars_.get(mm.group(1), mm.group(0)), val)
        if new == val: break
        val = new
    # pkg-config resolves variables in the raw value
    return raw, val

def src_version(pkg):
    d = info.get(pkg)
    if not d: return None, None, None
    binv = d['Version']
    src = d.get('Source', pkg)
    m = re.match(r'^(\S+)\s+\((.*)\)$', src)
    if m: return binv, m.group(1), m.group(2)
    return binv, src, binv

def upstream(v):
    """the brief's rule: strip epoch, Debian revision, +dfsg/+ds/~ds repack suffixes (and ~debNuM/~bpo)"""
    v = re.sub(r'^\d+:', '', v)
    if '-' in v: v = v.rsplit('-', 1)[0]
    v = re.sub(r'[+.~-](dfsg|ds|repack)[0-9.]*.*$', '', v)
    v = re.sub(r'~(deb|bpo)\d.*$', '', v)
    return v

def up_norms(up):
    """further normalizations of the Debian upstream version, with the basis recorded"""
    out = [(up, '')]
    v, basis = up, []
    m = re.match(r'^.*\+really(.+)$', v)
    if m: v = m.group(1); basis.append('+really part')
    w = re.sub(r'([+.~](git|darcs|svn|hg|bzr|cvs|snapshot)[0-9a-z.]*|\+\d{8}|\+debian|\+\d+)$', '', v)
    if w != v: v = w; basis.append('snapshot/Debian suffix dropped')
    m = re.match(r'^0~(\d{8})$', v)
    if m: v = m.group(1); basis.append("Debian '0~' date prefix dropped")
    w = re.sub(r'~(alpha|beta|rc|pre)', r'-\1', v)
    if w != v: v = w; basis.append("'~' pre-release written as '-'")
    if v != up: out.append((v, '; '.join(basis)))
    return out

def pc_norm(pc):
    w = re.sub(r'\+(dfsg|ds|release).*$', '', pc)
    w = w.rstrip('-')
    return w

OVERRIDE = {'cddlib': ('equal', "Debian version drops the dot (094m = 0.94m)")}

def classify(pc, up, module):
    """returns (verdict, basis)"""
    if module in OVERRIDE: return OVERRIDE[module]
    if pc is None or pc == '': return ('DIFFERENT', 'empty/no Version')
    cands = up_norms(up)
    pcs = [(pc, '')]
    if pc_norm(pc) != pc: pcs.append((pc_norm(pc), "pc suffix dropped ('" + pc[len(pc_norm(pc)):] + "')"))
    for p, pb in pcs:
        for u, ub in cands:
            if p == u: return ('equal', '; '.join(x for x in (ub, pb) if x) or 'as-is')
    for p, pb in pcs:
        for u, ub in cands:
            for cond, what in ((u.startswith(p + '.'), 'pc shorter'), (p.startswith(u + '.'), 'pc longer'),
                               (p.startswith(u + '_'), "pc longer at '_'"), (u.startswith(p + '-'), "pc shorter at '-'")):
                if cond:
                    return ('equal-prefix', '; '.join(x for x in (ub, pb, what) if x))
            if p.startswith(u) and p[len(u):].isalpha():
                return ('equal-prefix', "pc carries a pre-release word ('" + p[len(u):] + "')")
    return ('DIFFERENT', '')

def verdict_strict(pc, up):
    if not pc: return 'DIFFERENT'
    if pc == up: return 'equal'
    if up.startswith(pc + '.') or pc.startswith(up + '.'): return 'equal-prefix'
    return 'DIFFERENT'

def pkgconf_modversion(fn):
    import subprocess
    p = subprocess.run(['pkgconf', '--modversion', '--maximum-traverse-depth=1', fn], capture_output=True, text=True)
    return p.stdout.rstrip('\n') if p.returncode == 0 else 'ERROR: ' + p.stderr.strip().replace('\n', ' ')[:80]

rows = []
for o in plan:
    r = dict(module=o['module'], id=o['id'], role=o['role'], debian_package=o['pkg'],
             pc_path=o['path'], located_by=o['how'])
    if not o['pkg']:
        r.update(package_version='', source='', source_version='', upstream='', pc_version_raw='', pc_version='', verdict='NOT-SHIPPED', verdict_strict='NOT-SHIPPED', basis='', pkgconf_modversion='', pc_real_file='')
        rows.append(r); continue
    binv, src, srcv = src_version(o['pkg'])
    tpkg, full, hops = resolve_link(o['pkg'], o['path'])
    if not os.path.exists(full):
        print('missing file', o, full, file=sys.stderr); continue
    if tpkg != o['pkg']:
        binv, src, srcv = src_version(tpkg) if tpkg in info else (None, None, None)
        if binv is None:
            # symlink target package downloaded separately: read version from its file name
            deb = [f for f in os.listdir('/var/tmp/pc-audit-debs') if f.startswith(tpkg + '_')][0]
            import subprocess
            f = subprocess.run(['dpkg-deb', '-f', '/var/tmp/pc-audit-debs/' + deb, 'Version', 'Source'], capture_output=True, text=True).stdout
            dd = dict(l.split(': ', 1) for l in f.strip().split('\n'))
            binv = dd['Version']; s = dd.get('Source', tpkg)
            m = re.match(r'^(\S+)\s+\((.*)\)$', s)
            src, srcv = (m.group(1), m.group(2)) if m else (s, binv)
        r['debian_package'] = f"{o['pkg']} -> {tpkg}"
    raw, val = pc_version(full)
    up = upstream(srcv)
    v, basis = classify(val, up, o['module'])
    pcm = pkgconf_modversion(full)
    if pcm != (val or ''):
        print('pkgconf disagrees', o['module'], repr(pcm), repr(val), file=sys.stderr)
    r.update(package_version=binv, source=src, source_version=srcv, upstream=up,
             pc_version_raw=raw or '', pc_version=val or '', verdict=v, verdict_strict=verdict_strict(val, up),
             basis=basis, pkgconf_modversion=pcm,
             pc_real_file=os.path.relpath(full, os.path.join(WORK, 'x')) + ((' (symlink: ' + ' -> '.join(hops) + ')') if hops else ''))
    rows.append(r)

notes = {}
NOTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'notes.tsv')
if os.path.exists(NOTES):
    for l in open(NOTES):
        if l.strip() and not l.startswith('#'):
            k, kind, note = (l.rstrip('\n').split('\t') + ['', ''])[:3]
            notes[k] = (kind, note)
cols = ['module', 'id', 'role', 'debian_package', 'package_version', 'source', 'source_version', 'upstream',
        'pc_version', 'verdict', 'basis', 'kind', 'note', 'verdict_strict', 'pc_version_raw', 'pkgconf_modversion',
        'pc_path', 'pc_real_file', 'located_by']
with open(OUT, 'w') as f:
    f.write('\t'.join(cols) + '\n')
    for r in rows:
        k = notes.get(f"{r['module']}|{r['debian_package']}", ('', ''))
        if k == ('', '') and (r['verdict'] == 'DIFFERENT' or r['module'] in OVERRIDE):
            k = notes.get(r['module'], ('', ''))
        if r['verdict'] == 'NOT-SHIPPED':
            k = ('not shipped', r.get('located_by', ''))
        r['kind'], r['note'] = k
        f.write('\t'.join(str(r.get(c, '')) for c in cols) + '\n')
print(len(rows), 'rows')
