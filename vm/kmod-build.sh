#!/usr/bin/env bash
# Build an out-of-tree (test-only) kernel module against a flavour's build tree.
# The sources are copied to OUTDIR first so the repository stays clean.
# usage: vm/kmod-build.sh FLAVOUR MODULE_SRC_DIR [OUTDIR]
#   MODULE_SRC_DIR holds a Kbuild (or Makefile) with obj-m := name.o and the sources.
#   OUTDIR defaults to $LIBERRSEQ_CACHE/vm/modules/FLAVOUR/<basename of MODULE_SRC_DIR>.
# Prints the path of every .ko built. Load them only inside the guest: pass them to
# vm/run.sh --add PATH.ko:/lib/modules/ and insmod there. Never on the host.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ $# -lt 2 ] || [ $# -gt 3 ]; then die "usage: $0 stock|patched MODULE_SRC_DIR [OUTDIR]"; fi
flavour=$1 msrc=$2
vm_check_flavour "$flavour"
[ -d "$msrc" ] || die "no module source directory $msrc"
build=$(vm_build_dir "$flavour")
if [ ! -f "$build/Module.symvers" ] || [ ! -f "$build/scripts/mod/modpost" ]; then
	die "$flavour kernel tree not prepared: run vm/kernel-build.sh $flavour"
fi
out=${3:-$VM_CACHE/modules/$flavour/$(basename "$(cd "$msrc" && pwd)")}
mkdir -p "$out"
rsync -rlpc --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod*' \
	--exclude=Module.symvers --exclude=modules.order "$msrc/" "$out/"
vm_kbuild_env
log "building module(s) in $out against the $flavour kernel ($(cat "$build/include/config/kernel.release"))"
nice -n "${VM_NICE:-10}" make -s -C "$build" ARCH=x86_64 CC="ccache gcc" M="$out" -j"$(nproc)" modules ||
	die "module build failed in $out"
find "$out" -maxdepth 1 -name '*.ko' | sort
