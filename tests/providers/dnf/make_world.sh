#!/bin/bash
# Builds a small Fedora-like world with the real tools, offline: packages made with rpmbuild from
# generated specs, a repository indexed with createrepo_c, a root whose rpm database the real rpm
# wrote (rpm -i --justdb), its os-release and /etc/yum.repos.d, and DIR/dnf.sh running the real
# dnf on that root. Usage: make_world.sh DIR
# Needs rpmbuild and rpm (Debian: rpm), createrepo_c and modifyrepo_c (createrepo-c); dnf.sh
# needs dnf. What is missing to build it is said, with exit status 77.
set -euo pipefail
W=$1
missing=""
for t in rpmbuild:rpm rpm:rpm createrepo_c:createrepo-c modifyrepo_c:createrepo-c; do
  command -v "${t%%:*}" >/dev/null 2>&1 || missing="$missing ${t%%:*} (Debian: ${t#*:})"
done
if [ -n "$missing" ]; then echo "needs$missing"; exit 77; fi
mkdir -p "$W/specs" "$W/rpmbuild" "$W/repo" "$W/root/etc/yum.repos.d" "$W/home" "$W/dnf"

# pkg NAME EPOCH VERSION RELEASE ARCH [spec line...]: AutoReqProv off (the relations are the
# given ones), a file under /usr/share/NAME, and any "File: PATH" line as a file it ships.
pkg() {
  local name=$1 epoch=$2 version=$3 release=$4 arch=$5
  shift 5
  local spec="$W/specs/$name-$version.spec" files="/usr/share/$name/README" l
  {
    echo "Name: $name"
    [[ $epoch != 0 ]] && echo "Epoch: $epoch"
    echo "Version: $version"
    echo "Release: $release"
    echo "Summary: extdeps test package $name"
    echo "License: MIT"
    [[ $arch == noarch ]] && echo "BuildArch: noarch"
    echo "AutoReqProv: no"
    for l in "$@"; do [[ $l == File:* ]] || echo "$l"; done
    echo "%description"
    echo "extdeps test package $name."
    echo "%install"
    echo "mkdir -p %{buildroot}/usr/share/$name && echo $name > %{buildroot}/usr/share/$name/README"
    for l in "$@"; do
      if [[ $l == File:* ]]; then
        local f=${l#File: }
        echo "mkdir -p %{buildroot}$(dirname "$f") && echo $name > %{buildroot}$f"
        files="$files $f"
      fi
    done
    echo "%files"
    for l in $files; do echo "$l"; done
  } > "$spec"
  rpmbuild -bb --quiet --nodeps --define "_topdir $W/rpmbuild" --define "_build_id_links none" "$spec" >/dev/null 2>&1 ||
    { echo "rpmbuild failed on $spec" >&2; rpmbuild -bb --nodeps --define "_topdir $W/rpmbuild" "$spec" >&2; exit 1; }
}

# Names, relations and pkgconfig() provides as Fedora 41 has them.
pkg glibc 0 2.40 9.fc41 x86_64 "Provides: libc.so.6()(64bit)"
pkg bash 0 5.2.32 1.fc41 x86_64 "Requires: glibc" "File: /usr/bin/bash" "File: /bin/sh"
pkg zlib-ng-compat 0 2.1.7 3.fc41 x86_64 "Provides: zlib = 1.3.1" "Requires: glibc"
pkg zlib-ng-compat-devel 0 2.1.7 3.fc41 x86_64 "Requires: zlib-ng-compat = 2.1.7-3.fc41" \
    "Provides: zlib-devel = 1.3.1" "Provides: pkgconfig(zlib) = 1.3.1"
pkg openssl-libs 1 3.2.2 9.fc41 x86_64 "Requires: glibc" "Provides: libssl.so.3()(64bit)"
pkg openssl-devel 1 3.2.2 9.fc41 x86_64 "Requires: openssl-libs = 1:3.2.2-9.fc41" \
    "Provides: pkgconfig(openssl) = 3.2.2" "Requires: pkgconfig(zlib)"
pkg libpng 2 1.6.40 4.fc41 x86_64 "Requires: zlib-ng-compat"
pkg libpng-devel 2 1.6.40 4.fc41 x86_64 "Requires: libpng = 2:1.6.40-4.fc41" "Provides: pkgconfig(libpng) = 1.6.40" \
    "Requires: zlib-devel"
pkg libjpeg-turbo 0 3.0.2 3.fc41 x86_64 "Requires: glibc"
pkg libjpeg-turbo-devel 0 3.0.2 3.fc41 x86_64 "Requires: libjpeg-turbo = 3.0.2-3.fc41" "Provides: libjpeg-devel = 6b"
pkg libcurl 0 8.9.1 2.fc41 x86_64 "Requires: openssl-libs >= 1:3.0" "Requires: zlib-ng-compat"
pkg libcurl-devel 0 8.9.1 2.fc41 x86_64 "Requires: libcurl = 8.9.1-2.fc41" "Provides: pkgconfig(libcurl) = 8.9.1"
pkg sqlite-libs 0 3.46.1 1.fc41 x86_64 "Requires: zlib-ng-compat"
pkg sqlite-devel 0 3.46.1 1.fc41 x86_64 "Requires: sqlite-libs = 3.46.1-1.fc41" "Provides: pkgconfig(sqlite3) = 3.46.1"
pkg pkgconf 0 2.3.0 1.fc41 x86_64 "Requires: glibc"
pkg pkgconf-pkg-config 0 2.3.0 1.fc41 x86_64 "Requires: pkgconf = 2.3.0-1.fc41" "Provides: pkg-config = 2.3.0" \
    "Provides: pkgconfig = 1:2.3.0" "File: /usr/bin/pkg-config"
pkg cmake-data 0 3.30.5 1.fc41 noarch
pkg cmake 0 3.30.5 1.fc41 x86_64 "Requires: cmake-data = 3.30.5-1.fc41" "Requires: libcurl" "File: /usr/bin/cmake"
pkg hdf5 0 1.14.5 1.fc41 x86_64 "Requires: zlib-ng-compat"
pkg hdf5-devel 0 1.14.5 1.fc41 x86_64 "Requires: hdf5 = 1.14.5-1.fc41" "Requires: zlib-devel"
pkg gdal-libs 0 3.9.3 1.fc41 x86_64 "Requires: libcurl" "Requires: libpng" "Requires: hdf5" "Requires: sqlite-libs"
pkg gdal-devel 0 3.9.3 1.fc41 x86_64 "Requires: gdal-libs = 3.9.3-1.fc41" "Provides: pkgconfig(gdal) = 3.9.3" \
    "Requires: (libcurl-devel or curl-devel)" "Requires: /usr/bin/pkg-config"
pkg eigen3-devel 0 3.4.0 16.fc41 noarch "Provides: pkgconfig(eigen3) = 3.4.0"
pkg fftw-libs-double 0 3.3.10 13.fc41 x86_64 "Requires: glibc"
pkg fftw-devel 0 3.3.10 13.fc41 x86_64 "Requires: fftw-libs-double = 3.3.10-13.fc41" "Provides: pkgconfig(fftw3) = 3.3.10"
pkg boost-system 0 1.83.0 8.fc41 x86_64 "Requires: glibc"
pkg boost-devel 0 1.83.0 8.fc41 x86_64 "Requires: boost-system = 1.83.0-8.fc41"
pkg oldcurl 0 7.0 1.fc41 x86_64 "Conflicts: libcurl < 8"
# One source rpm, several binary packages, as Fedora 41's zstd.spec splits it: the zstd program,
# the libzstd library, libzstd-devel (requires the library of its own build), libzstd-static.
# Their sourcerpm is zstd-1.5.6-2.fc41.src.rpm.
cat > "$W/specs/zstd.spec" <<'SPEC'
Name: zstd
Version: 1.5.6
Release: 2.fc41
Summary: extdeps test package zstd
License: BSD-3-Clause OR GPL-2.0-only
AutoReqProv: no
Requires: libzstd = %{version}-%{release}
%description
The zstd program, split as Fedora splits it.
%package -n libzstd
Summary: Zstd shared library
%description -n libzstd
The library.
%package -n libzstd-devel
Summary: Header files for Zstd library
Requires: libzstd = %{version}-%{release}
Provides: pkgconfig(libzstd) = %{version}
%description -n libzstd-devel
The headers.
%package -n libzstd-static
Summary: Static variant of the Zstd library
Requires: libzstd-devel = %{version}-%{release}
%description -n libzstd-static
The static library.
%install
for d in zstd libzstd libzstd-devel libzstd-static; do
  mkdir -p %{buildroot}/usr/share/$d && echo $d > %{buildroot}/usr/share/$d/README
done
%files
/usr/share/zstd/README
%files -n libzstd
/usr/share/libzstd/README
%files -n libzstd-devel
/usr/share/libzstd-devel/README
%files -n libzstd-static
/usr/share/libzstd-static/README
SPEC
rpmbuild -bb --quiet --nodeps --define "_topdir $W/rpmbuild" --define "_build_id_links none" "$W/specs/zstd.spec" \
  >/dev/null 2>&1 || { echo "rpmbuild failed on zstd.spec" >&2; exit 1; }

cp "$W"/rpmbuild/RPMS/*/*.rpm "$W/repo/"
createrepo_c -q "$W/repo"

cat > "$W/root/etc/os-release" <<'OS'
NAME="Fedora Linux"
VERSION_ID=41
ID=fedora
PRETTY_NAME="Fedora Linux 41 (Forty One)"
OS
cat > "$W/root/etc/yum.repos.d/test.repo" <<REPO
[test]
name=extdeps test repository for Fedora \$releasever \$basearch
baseurl=file://$W/repo
enabled=1
gpgcheck=0
metadata_expire=0
REPO
# Installed (rpm's own database, pinned to /var/lib/rpm; Debian's rpm would use ~/.rpmdb): the
# base, an older pkgconf the plan may upgrade.
rpm --root "$W/root" --dbpath /var/lib/rpm --initdb
pkg pkgconf 0 1.9.5 1.fc40 x86_64 "Requires: glibc"
pkg pkgconf-pkg-config 0 1.9.5 1.fc40 x86_64 "Requires: pkgconf = 1.9.5-1.fc40" "Provides: pkg-config = 1.9.5" \
    "Provides: pkgconfig = 1:1.9.5" "File: /usr/bin/pkg-config"
R=$W/rpmbuild/RPMS/x86_64
rpm --root "$W/root" --dbpath /var/lib/rpm -i --justdb --nodeps --force-debian \
  "$R/glibc-2.40-9.fc41.x86_64.rpm" "$R/bash-5.2.32-1.fc41.x86_64.rpm" "$R/zlib-ng-compat-2.1.7-3.fc41.x86_64.rpm" \
  "$R/pkgconf-1.9.5-1.fc40.x86_64.rpm" "$R/pkgconf-pkg-config-1.9.5-1.fc40.x86_64.rpm" 2>/dev/null

# A second root, installed only (never offered by the repository), with the relations of two
# real Fedora specs: libcurl-minimal (curl.spec: it provides libcurl and conflicts with
# libcurl%{?_isa}), which a minimal Fedora has in place of libcurl; and the compat OpenSSL 1.1
# (openssl1.1.spec: its -devel conflicts with openssl-devel and provides nothing of it). A need
# for openssl-devel has to swap openssl1.1-devel out, as `dnf install --allowerasing` does.
pkg libcurl-minimal 0 8.9.1 2.fc41 x86_64 "Requires: openssl-libs >= 1:3.0" "Provides: libcurl = 8.9.1-2.fc41" \
    "Provides: libcurl(x86-64) = 8.9.1-2.fc41" "Conflicts: libcurl(x86-64)"
pkg openssl1.1 1 1.1.1w 1.fc40 x86_64 "Requires: glibc"
pkg openssl1.1-devel 1 1.1.1w 1.fc40 x86_64 "Requires: openssl1.1(x86-64) = 1:1.1.1w-1.fc40" "Conflicts: openssl-devel"
mkdir -p "$W/root-swap/etc"
cp -r "$W/root/etc/." "$W/root-swap/etc/"
rpm --root "$W/root-swap" --dbpath /var/lib/rpm --initdb
rpm --root "$W/root-swap" --dbpath /var/lib/rpm -i --justdb --nodeps --force-debian \
  "$R/glibc-2.40-9.fc41.x86_64.rpm" "$R/bash-5.2.32-1.fc41.x86_64.rpm" "$R/zlib-ng-compat-2.1.7-3.fc41.x86_64.rpm" \
  "$R/openssl-libs-3.2.2-9.fc41.x86_64.rpm" "$R/libcurl-minimal-8.9.1-2.fc41.x86_64.rpm" \
  "$R/openssl1.1-1.1.1w-1.fc40.x86_64.rpm" "$R/openssl1.1-devel-1.1.1w-1.fc40.x86_64.rpm" 2>/dev/null

echo '%_dbpath /var/lib/rpm' > "$W/home/.rpmmacros"
cat > "$W/dnf.sh" <<SH
#!/bin/sh
# The real dnf on the world's root: its repository only, its rpm database.
HOME="$W/home" exec dnf --installroot="$W/root" --setopt=reposdir="$W/root/etc/yum.repos.d" \\
  --setopt=cachedir="$W/dnf/cache" --setopt=logdir=/var/log --setopt=persistdir="$W/dnf/persist" \\
  --releasever=41 --disablerepo='*' --enablerepo=test "\$@"
SH
chmod +x "$W/dnf.sh"
sed "s|--installroot=\"$W/root\"|--installroot=\"$W/root-swap\"|; s|$W/dnf/|$W/dnf-swap/|g" "$W/dnf.sh" > "$W/dnf-swap.sh"
chmod +x "$W/dnf-swap.sh"

# A modular repository (RHEL 9's AppStream is one): nodejs in the module streams 18 (the default)
# and 20, and a non-modular nodejs 16, with the modules.yaml modifyrepo_c adds as dnf reads it.
mkdir -p "$W/modrepo"
pkg nodejs 1 18.20.4 1.module_el9.4.0+1 x86_64 "Requires: glibc"
pkg nodejs 1 20.17.0 1.module_el9.4.0+2 x86_64 "Requires: glibc"
pkg nodejs 0 16.20.2 1.el9 x86_64 "Requires: glibc"
# Rich dependencies (rpm >= 4.13): client needs libfoo 2.x of 1.0, 2.5 and 3.1 ("with"); tool
# needs its zsh completion when zsh is installed ("if"), which needs a newer zsh than there is.
pkg libfoo 0 1.0 1.fc41 x86_64
pkg libfoo 0 2.5 1.fc41 x86_64
pkg libfoo 0 3.1 1.fc41 x86_64
pkg client 0 1.0 1.fc41 x86_64 "Requires: (libfoo >= 2 with libfoo < 3)"
pkg zsh 0 5.8 1.fc41 x86_64
pkg tool-zsh-completion 0 1.0 1.fc41 noarch "Requires: zsh >= 5.9"
pkg tool 0 1.0 1.fc41 x86_64 "Requires: (tool-zsh-completion if zsh)"
cp "$R"/nodejs-*.rpm "$R"/libfoo-*.rpm "$R"/client-*.rpm "$R"/zsh-*.rpm "$R"/tool-*.rpm \
  "$W"/rpmbuild/RPMS/noarch/tool-zsh-completion-*.rpm "$W/modrepo/"
createrepo_c -q "$W/modrepo"
cat > "$W/modules.yaml" <<'YAML'
---
document: modulemd
version: 2
data:
  name: nodejs
  stream: "18"
  version: 9040020240101000000
  context: rhel9
  arch: x86_64
  summary: Javascript runtime
  description: >-
    Node.js is a platform built on Chrome's JavaScript runtime.
  license:
    module:
    - MIT
  profiles:
    common:
      rpms:
      - nodejs
  artifacts:
    rpms:
    - nodejs-1:18.20.4-1.module_el9.4.0+1.x86_64
...
---
document: modulemd
version: 2
data:
  name: nodejs
  stream: "20"
  version: 9040020240201000000
  context: rhel9
  arch: x86_64
  summary: Javascript runtime
  description: >-
    Node.js is a platform built on Chrome's JavaScript runtime.
  license:
    module:
    - MIT
  profiles:
    common:
      rpms:
      - nodejs
  artifacts:
    rpms:
    - nodejs-1:20.17.0-1.module_el9.4.0+2.x86_64
...
---
document: modulemd-defaults
version: 1
data:
  module: nodejs
  stream: "18"
  profiles:
    "18": [common]
...
YAML
modifyrepo_c --mdtype=modules "$W/modules.yaml" "$W/modrepo/repodata" >/dev/null
