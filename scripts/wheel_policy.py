#!/usr/bin/env python3
"""The extdeps wheel's shared libraries and its platform tag (PEP 600), without auditwheel.

A program that runs where none of extdeps' build dependencies are installed needs every shared
library it links, except those PEP 600 lets a manylinux wheel take from the system (glibc's,
libstdc++, libgcc_s, libz ...), next to it. `bundle(program, libdir)` copies them there and points
the program's and their RUNPATH at them (patchelf). `platform_tag(files)` then reads the symbol
versions every ELF file asks of a library that is not bundled (`readelf -V`) and names the oldest
manylinux level whose policy allows all of them; a wheel that needs a library outside the policy
gets `linux_<arch>`, which no index accepts, and the reason says why.

Run as a program: `wheel_policy.py WHEEL_OR_FOLDER...` prints the tag the files are consistent
with and each reason a lower level is refused; exit 0, or 1 when the tag is plain `linux_*`.
"""

import os
import re
import shutil
import subprocess
import sys
import zipfile

# What each manylinux_2_X policy allows on x86_64 (the facts of PEP 600's reference policies, as
# auditwheel publishes them): the newest version of each versioned family, and the libraries a
# wheel may take from the system. Versions not listed (manylinux_2_24 ... 2_27, 2_37) add nothing
# for this program.
LEVELS = [
    # (glibc minor, GLIBCXX, CXXABI, GCC, ZLIB)
    (17, "3.4.19", "1.3.7", "4.8.0", "1.2.5.2"),
    (28, "3.4.24", "1.3.11", "7.0.0", "1.2.9"),
    (31, "3.4.28", "1.3.12", "7.0.0", "1.2.9"),
    (34, "3.4.29", "1.3.13", "7.0.0", "1.2.9"),
    (35, "3.4.30", "1.3.13", "12.0.0", "1.2.9"),
    (36, "3.4.30", "1.3.13", "12.0.0", "1.2.9"),
    (39, "3.4.33", "1.3.15", "14.0.0", "1.2.12"),
]
SYSTEM_LIBS = {
    "libc.so.6", "libm.so.6", "libmvec.so.1", "libdl.so.2", "librt.so.1", "libpthread.so.0",
    "libanl.so.1", "libnsl.so.1", "libutil.so.1", "libresolv.so.2", "libgcc_s.so.1",
    "libstdc++.so.6", "libatomic.so.1", "libz.so.1", "libexpat.so.1",
    "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
}
# Version names that are not numbered but allowed wherever their family is.
UNNUMBERED = {"TM_1", "FLOAT128", "PRIVATE"}


def _version(text):
    return tuple(int(x) for x in text.split("."))


def needed_versions(path):
    """{library: {version name}} that the ELF file at path asks for (its .gnu.version_r)."""
    out = subprocess.run(["readelf", "-V", "-W", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True, check=True).stdout
    needs = {}
    current = None
    for line in out.splitlines():
        m = re.search(r"File: (\S+)\s+Cnt:", line)
        if m:
            current = needs.setdefault(m.group(1), set())
            continue
        m = re.search(r"Name: (\S+)\s+Flags:", line)
        if m and current is not None:
            current.add(m.group(1))
    return needs


def needed_libraries(path):
    """The DT_NEEDED names of the ELF file at path."""
    out = subprocess.run(["readelf", "-d", "-W", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _refusal(level, lib, name):
    """Why manylinux_2_<level> cannot take the symbol version name from lib, or None."""
    glibc_minor, glibcxx, cxxabi, gcc, zlib = level
    family, _, number = name.partition("_")
    if number in UNNUMBERED or family.startswith("LIBATOMIC") or family in ("XZ", "SOLV"):
        return None
    if family == "GLIBC":
        if number == "ABI_DT_RELR":
            return None if glibc_minor >= 36 else "%s needs GLIBC_ABI_DT_RELR (glibc 2.36)" % lib
        if number.startswith("ABI_"):
            return None
        v = _version(number)
        return None if v <= (2, glibc_minor) else "%s: %s is newer than glibc 2.%d" % (lib, name, glibc_minor)
    ceilings = {"GLIBCXX": glibcxx, "CXXABI": cxxabi, "GCC": gcc, "ZLIB": zlib}
    if family in ceilings and re.fullmatch(r"[0-9.]+", number):
        ok = _version(number) <= _version(ceilings[family])
        return None if ok else "%s: %s is newer than %s_%s" % (lib, name, family, ceilings[family])
    return None


def platform_tag(files, arch="x86_64"):
    """(tag, reasons): the oldest manylinux tag the ELF files are consistent with, taking every
    file's name as bundled; ("linux_<arch>", reasons) when a library outside the policy is needed
    and not among them."""
    names = {os.path.basename(f) for f in files}
    needs = {}
    outside = []
    for f in files:
        for lib in needed_libraries(f):
            if lib not in names and lib not in SYSTEM_LIBS:
                outside.append("%s needs %s, which is neither bundled nor allowed from the system" %
                               (os.path.basename(f), lib))
        for lib, versions in needed_versions(f).items():
            if lib not in names:
                needs.setdefault(lib, set()).update(versions)
    if outside:
        return "linux_%s" % arch, sorted(set(outside))
    reasons = []
    for level in LEVELS:
        refused = sorted({r for lib, vs in needs.items() for v in vs for r in [_refusal(level, lib, v)] if r})
        if not refused:
            return "manylinux_2_%d_%s" % (level[0], arch), reasons
        reasons.append("not manylinux_2_%d: %s" % (level[0], "; ".join(refused)))
    return "linux_%s" % arch, reasons


def resolved_libraries(program):
    """{soname: path} of every library the program loads (ldd: the whole closure)."""
    out = subprocess.run(["ldd", program], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) => (/\S+) \(", line)
        if m:
            found[m.group(1)] = m.group(2)
        elif "not found" in line:
            raise RuntimeError("%s: %s" % (program, line.strip()))
    return found


def bundle(program, libdir, rpath="$ORIGIN/../lib"):
    """Copies every library the program loads that the policy does not allow from the system into
    libdir, sets their RUNPATH to $ORIGIN and the program's to rpath. Returns the copies."""
    os.makedirs(libdir, exist_ok=True)
    copies = []
    for soname, path in sorted(resolved_libraries(program).items()):
        if soname in SYSTEM_LIBS:
            continue
        dest = os.path.join(libdir, soname)
        shutil.copyfile(os.path.realpath(path), dest)
        os.chmod(dest, 0o755)
        subprocess.run(["patchelf", "--set-rpath", "$ORIGIN", dest], check=True)
        copies.append(dest)
    subprocess.run(["patchelf", "--set-rpath", rpath, program], check=True)
    return copies


def _elf_files(target):
    """The ELF files of a wheel (unpacked to a temporary folder) or of a folder."""
    if os.path.isdir(target):
        return [os.path.join(d, f) for d, _, fs in os.walk(target) for f in fs if is_elf(os.path.join(d, f))], None
    import tempfile
    tmp = tempfile.mkdtemp(prefix="wheel-policy-")
    with zipfile.ZipFile(target) as z:
        z.extractall(tmp)
    return _elf_files(tmp)[0], tmp


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    worst = 0
    for target in argv:
        files, tmp = _elf_files(target)
        try:
            tag, reasons = platform_tag(files)
        finally:
            if tmp:
                shutil.rmtree(tmp, True)
        print("%s: %s" % (target, tag))
        # For a manylinux tag, why the level below it is refused; for linux_*, every reason.
        for r in (reasons if tag.startswith("linux_") else reasons[-1:]):
            print("  %s" % r)
        if tag.startswith("linux_"):
            worst = 1
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
