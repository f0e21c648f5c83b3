#!/usr/bin/env bash
# Runs a command in a minimal Debian bookworm root that mmdebstrap makes (--variant=minbase: no
# compiler, no python, only what apt needs), with this checkout bind-mounted at its own path and
# ../shared beside it read-only where there is one. Nothing installed on this machine by hand is
# there: the command's own install steps are all it has. CI (.ci/run) uses it to prove that
# scripts/install-deps.sh and the README's commands work on a fresh machine.
#
# Usage: scripts/clean-root.sh [--root DIR] [--keep] [--mirror URL] -- COMMAND [ARG...]
#   --root DIR   make the root there (default: a new folder under /var/tmp); an existing root
#                made by an earlier --keep is reused as it is
#   --keep       leave the root in place afterwards (default: removed)
#   --mirror URL Debian mirror (default http://deb.debian.org/debian; security from
#                http://deb.debian.org/debian-security)
# The command runs as root in the checkout, with a clean environment (HOME=/root, a standard
# PATH, LANG=C.UTF-8, CI passed through). Exit status: the command's; 125 when the root could
# not be made or entered.
# Needs root (mmdebstrap's root mode, chroot, mount namespaces); installs mmdebstrap with
# apt-get when it is missing. The mounts live in a mount namespace of their own (unshare -m), so
# they vanish with the command, and removing the root can never reach the checkout.
set -euo pipefail

root="" keep=0 mirror="http://deb.debian.org/debian" security="http://deb.debian.org/debian-security"
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --mirror) mirror=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "clean-root: unknown option $1 (usage: see the head of $0)" >&2; exit 125 ;;
  esac
done
if [ $# -eq 0 ]; then echo "clean-root: no command given (usage: see the head of $0)" >&2; exit 125; fi
if [ "$(id -u)" -ne 0 ]; then echo "clean-root: must run as root (mmdebstrap --mode=root, chroot)" >&2; exit 125; fi

src=$(cd "$(dirname "$0")/.." && pwd -P)
shared=""  # ../shared as the tests name it (beside the checkout); a link to it is followed
if [ -d "$src/../shared" ]; then shared=$(cd "$src/../shared" && pwd -P); fi

if ! command -v mmdebstrap >/dev/null 2>&1; then
  echo "clean-root: installing mmdebstrap" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap >&2
fi

made=0
if [ -z "$root" ]; then root=$(mktemp -d /var/tmp/extdeps-root.XXXXXX); rmdir "$root"; fi
cleanup() {
  if [ "$made" -eq 1 ] && [ "$keep" -eq 0 ]; then
    # The mounts were made in the namespace that ended with the command; none is seen here.
    if grep -q " $root[/ ]" /proc/self/mountinfo; then
      echo "clean-root: $root still has mounts; left in place" >&2
    else
      rm -rf --one-file-system "$root"
    fi
  fi
}
trap cleanup EXIT

if [ ! -x "$root/usr/bin/apt-get" ]; then
  start=$(date +%s)
  made=1
  if ! mmdebstrap --quiet --variant=minbase --mode=root bookworm "$root" \
      "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
      "deb $security bookworm-security main" >&2; then
    echo "clean-root: mmdebstrap could not make a bookworm root in $root" >&2
    exit 125
  fi
  # What every installed machine and container has, but no package: the loopback names.
  printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"
  echo "clean-root: made a minimal bookworm root in $root ($(( $(date +%s) - start )) s)" >&2
fi

# Inside a new mount namespace: the kernel's file systems, the checkout and shared/, then chroot.
# shellcheck disable=SC2016
exec_in_root='
set -eu
root=$1 src=$2 shared=$3; shift 3
mount --make-rprivate /
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --rbind /dev "$root/dev"
mkdir -p "$root$src"
mount --bind "$src" "$root$src"
if [ -n "$shared" ]; then
  beside=$(dirname "$src")/shared
  mkdir -p "$root$beside"
  mount --bind "$shared" "$root$beside"
  mount -o remount,bind,ro "$root$beside"
fi
exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI="${CI:-}" \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  /bin/bash -c "cd \"\$0\" && exec \"\$@\"" "$src" "$@"
'
set +e
unshare --mount --fork /bin/bash -c "$exec_in_root" clean-root "$root" "$src" "$shared" "$@"
rc=$?
set -e
exit $rc
