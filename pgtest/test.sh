#!/usr/bin/env bash
# The ctest entry (labels vm, postgres): run the four variants on one kernel, print the
# table, and with --keep assert that the kernel kept every committed row (pgtest/check.sh).
# usage: pgtest/test.sh KERNEL OUTDIR [--keep]
set -euo pipefail
here=$(dirname "$0")
[ $# -ge 2 ] || { echo "usage: $0 stock|patched OUTDIR [--keep]" >&2; exit 2; }
kernel=$1 out=$2
rm -rf "$out"
"$here/run.sh" --kernels "$kernel" --out "$out"
[ "${3:-}" != --keep ] || "$here/check.sh" --keep "$out/results.txt" "$kernel"
