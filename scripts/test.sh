#!/usr/bin/env bash
# Run every test of the project through ctest. Installs missing Debian packages first.
# usage: scripts/test.sh [ctest arguments...]   e.g. scripts/test.sh -L unit
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
ctest --output-on-failure -j "$jobs" "$@"
