#!/bin/bash
# Builds a small Arch-like world with the real tools, offline: packages made with bsdtar (as
# makepkg would pack them; makepkg itself refuses to run as root), a repository indexed with the
# real repo-add, a root whose sync database the real `pacman -Sy` fetched from it over file://
# and whose local database the real `pacman -U` wrote. Usage: make_world.sh DIR
# Then: DIR/root (os-release says Arch), DIR/repo, and DIR/pacman.sh running pacman on that root.
# Needs bsdtar (libarchive-tools), repo-add and pacman (pacman-package-manager), and the
# compress.sh that repo-add sources (makepkg). What is missing is said, with exit status 77.
set -euo pipefail
W=$1
missing=""
for t in bsdtar:libarchive-tools repo-add:pacman-package-manager pacman:pacman-package-manager; do
  command -v "${t%%:*}" >/dev/null 2>&1 || missing="$missing ${t%%:*} (Debian: ${t#*:})"
done
[ -f /usr/share/makepkg/util/compress.sh ] ||
  missing="$missing /usr/share/makepkg/util/compress.sh, which repo-add sources (Debian: makepkg)"
if [ -n "$missing" ]; then echo "needs$missing"; exit 77; fi
mkdir -p "$W/repo" "$W/pkgs" "$W/root/etc" "$W/root/var/lib/pacman" "$W/root/var/cache/pacman/pkg" "$W/root/var/log"

# pkg NAME [EPOCH:]VER-REL ARCH [".PKGINFO line" ...]
pkg() {
  local name=$1 ver=$2 arch=$3
  shift 3
  local tmp
  tmp=$(mktemp -d)
  mkdir -p "$tmp/usr/share/$name"
  echo "$name $ver" > "$tmp/usr/share/$name/README"
  {
    echo "pkgname = $name"
    echo "pkgbase = $name"
    echo "pkgver = $ver"
    echo "pkgdesc = extdeps test package $name"
    echo "builddate = 1700000000"
    echo "packager = extdeps tests"
    echo "size = 16"
    echo "arch = $arch"
    local l
    for l in "$@"; do echo "$l"; done
  } > "$tmp/.PKGINFO"
  (cd "$tmp" && LANG=C bsdtar -czf .MTREE --format=mtree \
      --options='!all,use-set,type,uid,gid,mode,time,size,md5,sha256,link' .PKGINFO usr)
  (cd "$tmp" && bsdtar --zstd -cf "$W/pkgs/$name-$ver-$arch.pkg.tar.zst" --uid 0 --gid 0 .PKGINFO .MTREE usr)
  rm -rf "$tmp"
}

# Names and relations as Arch ships them (a library's package serves building and running).
pkg glibc 2.40+r16+gaa533d58ff-2 x86_64
pkg zlib 1:1.3.1-2 x86_64 "depend = glibc"
pkg openssl 3.4.0-1 x86_64 "depend = glibc" "provides = libcrypto.so=3-64" "provides = libssl.so=3-64"
pkg libpng 1.6.44-1 x86_64 "depend = zlib" "provides = libpng16.so=16-64"
pkg libjpeg-turbo 3.0.4-1 x86_64 "depend = glibc" "provides = libjpeg=8.2.2" "conflict = libjpeg"
pkg curl 8.11.0-1 x86_64 "depend = openssl" "depend = zlib" "provides = libcurl.so=4-64"
pkg sqlite 3.47.0-1 x86_64 "depend = zlib" "provides = sqlite3=3.47.0"
pkg libxml2 2.13.5-1 x86_64 "depend = zlib" "depend = icu"
pkg icu 75.1-2 x86_64 "depend = glibc"
pkg hdf5 1.14.5-1 x86_64 "depend = zlib" "depend = libaec"
pkg libaec 1.1.3-1 x86_64 "depend = glibc"
pkg gdal 3.9.3-1 x86_64 "depend = curl" "depend = libpng" "depend = libjpeg-turbo" "depend = hdf5" \
    "depend = sqlite" "depend = libxml2" "depend = proj>=9"
pkg proj 9.5.0-1 x86_64 "depend = sqlite" "depend = curl"
pkg openblas 0.3.28-2 x86_64 "provides = blas=3.12.0" "provides = cblas=3.12.0" "provides = lapack=3.12.0" \
    "conflict = blas" "conflict = cblas"
pkg blas 3.12.0-5 x86_64 "provides = libblas.so=3-64"
pkg fftw 3.3.10-7 x86_64 "depend = glibc"
pkg cmake 3.31.1-1 x86_64 "depend = curl" "depend = libxml2" "depend = zlib"
pkg pkgconf 2.3.0-1 x86_64 "provides = pkg-config=2.3.0" "provides = pkgconfig=2.3.0" "conflict = pkg-config"
pkg eigen 3.4.0-2 any
pkg boost-libs 1.86.0-2 x86_64 "depend = zlib" "provides = libboost_system.so=1.86.0-64"
pkg boost 1.86.0-2 x86_64 "depend = boost-libs=1.86.0"
pkg suitesparse 7.8.3-1 x86_64 "depend = blas" "depend = lapack"
pkg lapack 3.12.0-5 x86_64 "depend = blas=3.12.0"

(cd "$W/repo" && cp "$W"/pkgs/*.pkg.tar.zst . && repo-add -q test.db.tar.gz ./*.pkg.tar.zst)

cat > "$W/root/etc/os-release" <<'OS'
NAME="Arch Linux"
ID=arch
PRETTY_NAME="Arch Linux"
OS
cat > "$W/root/etc/pacman.conf" <<CONF
# A throw-away root for extdeps' tests (paths inside it; the command line adds the root).
[options]
DBPath = /var/lib/pacman/
Architecture = x86_64
SigLevel = Never
LocalFileSigLevel = Never

[test]
Server = file://$W/repo
CONF
cat > "$W/pacman.sh" <<SH
#!/bin/sh
exec pacman --config "$W/root/etc/pacman.conf" --root "$W/root" --dbpath "$W/root/var/lib/pacman" \\
  --cachedir "$W/root/var/cache/pacman/pkg" --logfile "$W/root/var/log/pacman.log" \\
  --gpgdir "$W/root/etc/pacman.d/gnupg" --hookdir "$W/root/etc/pacman.d/hooks" "\$@"
SH
chmod +x "$W/pacman.sh"
"$W/pacman.sh" -Sy >/dev/null
# Installed: glibc and zlib as the repository has them, and an older pkgconf the plan may upgrade.
pkg pkgconf 1.8.1-1 x86_64 "provides = pkg-config=1.8.1" "provides = pkgconfig=1.8.1" "conflict = pkg-config"
"$W/pacman.sh" -U --noconfirm "$W/pkgs/glibc-2.40+r16+gaa533d58ff-2-x86_64.pkg.tar.zst" \
  "$W/pkgs/zlib-1:1.3.1-2-x86_64.pkg.tar.zst" "$W/pkgs/pkgconf-1.8.1-1-x86_64.pkg.tar.zst" >/dev/null
