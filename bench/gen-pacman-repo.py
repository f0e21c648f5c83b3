#!/usr/bin/env python3
"""Writes an Arch-like root for bench/run.sh --pacman: DIR/root with etc/os-release (ID=arch),
etc/pacman.conf ([core], [extra]) and var/lib/pacman/{sync/core.db,sync/extra.db,local/...}.

The sync databases are what repo-add writes (a gzip'd tar of NAME-VERSION/desc files, pacman 6),
generated: the packages the ten needs of bench/pacman-ten-deps map to (mappings/arch.toml), with
the dependencies Arch gives them, and N filler packages (default 50,000) whose relations reach
each other and the core libraries (versioned and unversioned depends, soname provides,
conflicts). A few hundred are installed, some older than the repository's. Fixed seed: the same
N gives the same bytes.

Usage: bench/gen-pacman-repo.py DIR [--packages N]
"""
import argparse
import io
import os
import random
import tarfile

# name: (version, [depends], [provides]) -- the packages the needs reach, as Arch relates them.
CORE = {
    "glibc": ("2.40+r16+gaa533d58ff-2", ["linux-api-headers>=4.10", "tzdata", "filesystem"], []),
    "linux-api-headers": ("6.10-1", [], []),
    "tzdata": ("2024b-2", [], []),
    "filesystem": ("2024.11.21-1", ["iana-etc"], []),
    "iana-etc": ("20241119-1", [], []),
    "gcc-libs": ("14.2.1+r134+gab884fffe3fc-1", ["glibc>=2.27"], ["libgcc", "libstdc++", "libgomp.so=1-64"]),
    "bash": ("5.2.037-1", ["readline", "libreadline.so=8-64", "glibc", "ncurses"], ["sh"]),
    "readline": ("8.2.013-1", ["glibc", "ncurses", "libncursesw.so=6-64"], ["libreadline.so=8-64"]),
    "ncurses": ("6.5-3", ["glibc", "gcc-libs"], ["libncursesw.so=6-64"]),
    "zlib": ("1:1.3.1-2", ["glibc"], []),
    "xz": ("5.6.3-1", ["sh"], ["liblzma.so=5-64"]),
    "zstd": ("1.5.6-1", ["glibc", "gcc-libs", "zlib", "xz", "lz4"], ["libzstd.so=1-64"]),
    "lz4": ("1:1.10.0-2", ["glibc"], []),
    "bzip2": ("1.0.8-6", ["glibc", "sh"], ["libbz2.so=1.0-64"]),
    "icu": ("75.1-2", ["gcc-libs", "sh"], ["libicuuc.so=75-64", "libicui18n.so=75-64"]),
    "libxml2": ("2.13.5-1", ["bash", "glibc", "icu", "libicuuc.so=75-64", "readline", "xz", "zlib"], ["libxml2.so=16-64"]),
    "openssl": ("3.4.0-1", ["glibc"], ["libcrypto.so=3-64", "libssl.so=3-64"]),
    "libpng": ("1.6.44-1", ["glibc", "sh", "zlib"], ["libpng16.so=16-64"]),
    "libjpeg-turbo": ("3.0.4-1", ["glibc"], ["libjpeg=8.2.2", "libjpeg.so=8-64", "libturbojpeg.so=0-64"]),
    "expat": ("2.6.4-1", ["glibc"], ["libexpat.so=1-64"]),
    "libarchive": ("3.7.7-1", ["acl", "bzip2", "glibc", "libxml2", "lz4", "openssl", "xz", "zlib", "zstd"], ["libarchive.so=13-64"]),
    "acl": ("2.3.2-1", ["attr"], ["libacl.so=1-64"]),
    "attr": ("2.5.2-1", ["glibc"], ["libattr.so=1-64"]),
    "libuv": ("1.49.2-1", ["glibc"], ["libuv.so=1-64"]),
    "rhash": ("1.4.5-1", ["glibc", "openssl"], ["librhash.so=1-64"]),
    "jsoncpp": ("1.9.6-3", ["gcc-libs"], ["libjsoncpp.so=26-64"]),
    "cppdap": ("1.58.0-2", ["gcc-libs"], []),
    "hicolor-icon-theme": ("0.18-1", [], []),
    "cmake": ("3.31.1-1", ["cppdap", "curl", "expat", "gcc-libs", "glibc", "hicolor-icon-theme", "jsoncpp",
                           "libarchive", "libuv", "rhash", "zlib"], []),
    "ninja": ("1.12.1-2", ["gcc-libs", "glibc"], []),
    "pkgconf": ("2.3.0-1", ["glibc", "sh"], ["pkg-config=2.3.0", "pkgconfig=2.3.0", "libpkgconf.so=5-64"]),
    "ca-certificates": ("20240618-1", ["ca-certificates-mozilla"], []),
    "ca-certificates-mozilla": ("3.107-1", ["ca-certificates-utils>=20181109-3"], []),
    "ca-certificates-utils": ("20240618-1", ["bash", "coreutils", "findutils", "p11-kit>=0.23.19"], ["ca-certificates"]),
    "coreutils": ("9.5-2", ["acl", "attr", "glibc", "gmp", "libcap", "openssl"], []),
    "findutils": ("4.10.0-2", ["glibc", "sh"], []),
    "gmp": ("6.3.0-2", ["gcc-libs", "sh"], ["libgmp.so=10-64"]),
    "libcap": ("2.71-1", ["gcc-libs", "glibc"], ["libcap.so=2-64"]),
    "p11-kit": ("0.25.5-1", ["coreutils", "libtasn1", "libffi", "systemd-libs"], ["libp11-kit.so=0-64"]),
    "libtasn1": ("4.19.0-2", ["glibc"], ["libtasn1.so=6-64"]),
    "libffi": ("3.4.6-1", ["glibc"], ["libffi.so=8-64"]),
    "systemd-libs": ("256.8-1", ["glibc", "gcc-libs", "libcap", "lz4", "xz", "zstd"], ["libsystemd.so=0-64", "libudev.so=1-64"]),
    "brotli": ("1.1.0-3", ["glibc"], ["libbrotlidec.so=1-64"]),
    "krb5": ("1.21.3-1", ["glibc", "e2fsprogs", "keyutils", "libldap", "lmdb", "libverto"], ["libgssapi_krb5.so=2-64"]),
    "e2fsprogs": ("1.47.1-4", ["sh", "util-linux-libs"], ["libcom_err.so=2-64"]),
    "util-linux-libs": ("2.40.2-1", ["glibc"], ["libblkid.so=1-64", "libuuid.so=1-64"]),
    "keyutils": ("1.6.3-3", ["glibc", "sh"], ["libkeyutils.so=1-64"]),
    "libldap": ("2.6.8-2", ["libsasl", "e2fsprogs"], ["libldap.so=2-64"]),
    "libsasl": ("2.1.28-5", ["openssl"], ["libsasl2.so=3-64"]),
    "lmdb": ("0.9.33-1", ["glibc"], []),
    "libverto": ("0.3.2-5", ["glibc"], []),
    "libidn2": ("2.3.7-1", ["libunistring"], ["libidn2.so=0-64"]),
    "libunistring": ("1.3-1", ["glibc"], ["libunistring.so=5-64"]),
    "libnghttp2": ("1.64.0-1", ["glibc"], ["libnghttp2.so=14-64"]),
    "libnghttp3": ("1.6.0-1", ["glibc"], ["libnghttp3.so=9-64"]),
    "libpsl": ("0.21.5-2", ["libidn2", "libunistring"], ["libpsl.so=5-64"]),
    "libssh2": ("1.11.1-1", ["openssl", "zlib"], ["libssh2.so=1-64"]),
    "curl": ("8.11.0-1", ["brotli", "ca-certificates", "krb5", "libidn2", "libnghttp2", "libnghttp3", "libpsl",
                          "libssh2", "openssl", "zlib", "zstd", "libcrypto.so=3-64", "libssl.so=3-64"],
             ["libcurl.so=4-64"]),
    "sqlite": ("3.47.0-1", ["readline", "zlib", "glibc"], ["sqlite3=3.47.0", "libsqlite3.so=0-64"]),
}
# Installed: the base, some at older versions than the repository's.
INSTALLED = {
    "glibc": "2.40+r16+gaa533d58ff-2", "linux-api-headers": "6.10-1", "tzdata": "2024b-2",
    "filesystem": "2024.11.21-1", "iana-etc": "20241119-1", "gcc-libs": "14.2.1+r134+gab884fffe3fc-1",
    "bash": "5.2.037-1", "readline": "8.2.013-1", "ncurses": "6.5-3", "zlib": "1:1.3.1-1",
    "xz": "5.6.2-1", "openssl": "3.3.2-1", "zstd": "1.5.6-1", "lz4": "1:1.10.0-2",
}


def desc(name, version, depends, provides, conflicts, arch, installed):
    out = []

    def section(key, values):
        if values:
            out.append("%" + key + "%\n" + "\n".join(values) + "\n")

    if not installed:
        section("FILENAME", [f"{name}-{version}-{arch}.pkg.tar.zst"])
    section("NAME", [name])
    section("BASE", [name])
    section("VERSION", [version])
    section("DESC", [f"generated package {name}"])
    if not installed:
        section("CSIZE", ["4096"])
    section("ISIZE" if not installed else "SIZE", ["16384"])
    section("ARCH", [arch])
    section("BUILDDATE", ["1732000000"])
    if installed:
        section("INSTALLDATE", ["1732100000"])
        section("REASON", ["1"])
    section("CONFLICTS", conflicts)
    section("PROVIDES", provides)
    section("DEPENDS", depends)
    return "\n".join(out) + "\n"


def write_db(path, entries):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=6) as tar:
        for name, version, text in entries:
            d = tarfile.TarInfo(f"{name}-{version}")
            d.type = tarfile.DIRTYPE
            d.mode = 0o755
            d.mtime = 1732000000
            tar.addfile(d)
            data = text.encode()
            f = tarfile.TarInfo(f"{name}-{version}/desc")
            f.size = len(data)
            f.mode = 0o644
            f.mtime = 1732000000
            tar.addfile(f, io.BytesIO(data))
    with open(path, "wb") as out:
        out.write(buf.getvalue())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--packages", type=int, default=50000)
    a = ap.parse_args()
    rng = random.Random(725)
    root = os.path.join(a.dir, "root")
    for d in ("etc", "var/lib/pacman/sync", "var/lib/pacman/local"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    with open(os.path.join(root, "etc/os-release"), "w") as f:
        f.write('NAME="Arch Linux"\nID=arch\nPRETTY_NAME="Arch Linux"\n')
    with open(os.path.join(root, "etc/pacman.conf"), "w") as f:
        f.write("[options]\nDBPath = /var/lib/pacman/\nArchitecture = x86_64\nSigLevel = Never\n\n"
                "[core]\nServer = file:///nonexistent\n\n[extra]\nServer = file:///nonexistent\n")

    core, extra = [], []
    for name, (version, depends, provides) in sorted(CORE.items()):
        core.append((name, version, desc(name, version, depends, provides, [], "x86_64", False)))
    libs = sorted(INSTALLED)  # fillers link the base system; the needs' own packages stay to plan
    fillers = []
    for i in range(a.packages):
        name = f"pkg{i:05d}" if i % 7 else f"lib{i:05d}"
        major = rng.randint(0, 30)
        version = f"{major}.{rng.randint(0, 20)}.{rng.randint(0, 9)}-{rng.randint(1, 4)}"
        if i % 13 == 0:
            version = f"{rng.randint(1, 3)}:{version}"
        depends = []
        # Packages come in families of 40 (a project's split packages, a language's modules):
        # a package depends on earlier members of its family and on the core libraries, so
        # closures stay the size real ones are, tens of packages, not the whole repository.
        family_start = i - i % 40
        for _ in range(rng.randint(0, 6)):
            if i > family_start and rng.random() < 0.7:
                dep, dep_version = fillers[rng.randrange(family_start, i)]
                depends.append(dep if rng.random() < 0.8 else f"{dep}>={dep_version.split('-')[0]}")
            else:
                depends.append(rng.choice(libs))
        provides = [f"{name}.so={major}-64"] if name.startswith("lib") else []
        conflicts = [f"pkg{rng.randrange(a.packages):05d}"] if i % 97 == 0 else []
        arch = "any" if i % 11 == 0 else "x86_64"
        fillers.append((name, version))
        extra.append((name, version, desc(name, version, sorted(set(depends)), provides, conflicts, arch, False)))

    write_db(os.path.join(root, "var/lib/pacman/sync/core.db"), core)
    write_db(os.path.join(root, "var/lib/pacman/sync/extra.db"), extra)

    local = os.path.join(root, "var/lib/pacman/local")
    with open(os.path.join(local, "ALPM_DB_VERSION"), "w") as f:
        f.write("9\n")
    # What is installed is consistent, as on a real machine: 300 packages picked at random and
    # everything they depend on (the core libraries at the versions of INSTALLED where it has
    # them, the repository's otherwise).
    version_of = {name: version for name, (version, _, _) in CORE.items()}
    deps_of = {name: depends for name, (_, depends, _) in CORE.items()}
    for name, version, text in extra:
        version_of[name] = version
        deps_of[name] = [l for l in text.split("%DEPENDS%\n")[1].split("\n") if l] if "%DEPENDS%" in text else []
    provider_of = {p.split("=")[0]: name for name, (_, _, provides) in CORE.items() for p in provides}
    installed = dict(INSTALLED)
    todo = [name for name, _ in rng.sample(fillers, min(300, len(fillers)))] + list(INSTALLED)
    seen = set()
    while todo:
        dep = todo.pop().split(">=")[0].split("=")[0]
        name = dep if dep in version_of else provider_of.get(dep)
        if name is None or name in seen:
            continue
        seen.add(name)
        installed.setdefault(name, version_of[name])
        todo.extend(deps_of[name])
    for name, version in sorted(installed.items()):
        depends, provides = CORE[name][1:] if name in CORE else ([], [])
        d = os.path.join(local, f"{name}-{version}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "desc"), "w") as f:
            f.write(desc(name, version, depends, provides, [], "x86_64", True))
        with open(os.path.join(d, "files"), "w") as f:  # pacman reads it for file conflicts
            f.write("%FILES%\n\n")
    print(f"{a.dir}: {len(core)} core + {len(extra)} extra packages, {len(installed)} installed")


if __name__ == "__main__":
    main()
