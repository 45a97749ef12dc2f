#!/usr/bin/env bash
# Build errseq_inject.ko against a vm/ kernel build tree (never loaded on the host).
# usage: difftest/kmod/build.sh KERNEL_BUILD_DIR OUTDIR
set -euo pipefail
kb=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$kb/Module.symvers" ] || { echo "error: $kb has no Module.symvers (kernel not built?)" >&2; exit 1; }
mkdir -p "$out"
# Build in a copy: the source tree stays clean and two flavours can build at once.
cp "$here/errseq_inject.c" "$here/Kbuild" "$out/"
nice -n 10 make -s -C "$kb" M="$out" ARCH=x86_64 modules >&2
ls "$out/errseq_inject.ko"
