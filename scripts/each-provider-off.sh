#!/usr/bin/env bash
# Builds extdeps with each provider left out in turn (-DEXTDEPS_PROVIDER_<NAME>=OFF, the others
# on) and runs the tests that remain: a provider is its folder and one word in EXTDEPS_PROVIDERS,
# so nothing else may need any one of them (issue 32). CI builds one such configuration (.ci/in-root
# providers_off: apt, pkgconf and dnf together); this script is the one-at-a-time check.
#
#   scripts/each-provider-off.sh BUILD_DIR [PROVIDER...]    (default: every provider)
#
# BUILD_DIR is configured again for each provider and kept between them, so only what the
# configuration changes is built again: the generated provider list and the links, and for a
# provider whose provider.cmake adds include folders (dnf, pkgconf) the library. A summary line
# per provider is printed at the end; the exit status is 1 when any configuration failed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/each-provider-off.sh BUILD_DIR [PROVIDER...]}
shift
all=$(sed -n 's/^set(EXTDEPS_PROVIDERS \(.*\))$/\1/p' CMakeLists.txt)
[ -n "$all" ] || { echo "no EXTDEPS_PROVIDERS line in CMakeLists.txt" >&2; exit 2; }
wanted=${*:-$all}
for p in $wanted; do
  case " $all " in *" $p "*) ;; *) echo "unknown provider '$p' (known: $all)" >&2; exit 2 ;; esac
done

summary=()
failed=0
for off in $wanted; do
  flags=()
  for p in $all; do
    P=$(echo "$p" | tr a-z A-Z)
    if [ "$p" = "$off" ]; then flags+=("-DEXTDEPS_PROVIDER_$P=OFF"); else flags+=("-DEXTDEPS_PROVIDER_$P=ON"); fi
  done
  t0=$(date +%s)
  log=$build/each-provider-off-$off.log
  mkdir -p "$build"
  echo "== $off off: configure, build, ctest (log: $log)"
  if ! cmake -S . -B "$build" -G Ninja "${flags[@]}" >"$log" 2>&1; then
    summary+=("$off off: configure FAILED ($log)")
    failed=1
    continue
  fi
  if ! cmake --build "$build" >>"$log" 2>&1; then
    summary+=("$off off: build FAILED ($log)")
    failed=1
    continue
  fi
  if "$build/extdeps" providers | grep -q "^$off:"; then
    summary+=("$off off: the built extdeps still lists $off")
    failed=1
    continue
  fi
  ctest --test-dir "$build" -j"$(nproc)" >>"$log" 2>&1
  rc=$?
  result=$(grep -E '^[0-9]+% tests passed' "$log" | tail -1)
  skipped=$(sed -n '/tests did not run/,$p' "$log" | grep -c '(Skipped)')
  summary+=("$off off: ${result:-no ctest summary}, $skipped skipped, $(( $(date +%s) - t0 )) s")
  [ $rc -eq 0 ] || failed=1
done
echo
printf '%s\n' "${summary[@]}"
exit $failed
