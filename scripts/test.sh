#!/usr/bin/env bash
# Run every test of the project through ctest. Installs missing Debian packages first.
# usage: scripts/test.sh [ctest arguments...]   e.g. scripts/test.sh -L lib (HACKING.md lists the labels)
# Without arguments every test runs except label "bisect" (kport-bisect, kport-bisect-6.12:
# a kernel build after every patch of each series, too long for CI's 90 minutes from an
# empty cache; vm/README.md has the numbers): run those with scripts/test.sh -L bisect.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
"$LIBERRSEQ_ROOT/scripts/deps.sh" all
build=${LIBERRSEQ_BUILD:-$(build_dir build-test)}
jobs=$(nproc)
log "configuring in $build"
cmake -S "$LIBERRSEQ_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
log "building"
cmake --build "$build" -j "$jobs"
log "testing"
cd "$build"
[ $# -gt 0 ] || set -- -LE bisect
ctest --output-on-failure -j "$jobs" "$@"
