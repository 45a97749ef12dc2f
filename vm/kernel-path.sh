#!/usr/bin/env bash
# Print where a flavour's kernel lives (for other folders' scripts and CMake).
# usage: vm/kernel-path.sh FLAVOUR [WHAT]     FLAVOUR: stock | patched
#   WHAT: bzimage (default)  arch/x86/boot/bzImage
#         build              the O= build directory (make -C it M=... for external modules)
#         src                the kernel source tree of that flavour
#         vmlinux            the uncompressed ELF with symbols
#         release            the kernel release string (uname -r in the guest)
# Exits 1 (with a hint on stderr) when the thing does not exist yet.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ $# -lt 1 ] || [ $# -gt 2 ]; then die "usage: $0 stock|patched [bzimage|build|src|vmlinux|release]"; fi
flavour=$1
vm_check_flavour "$flavour"
build=$(vm_build_dir "$flavour")
case "${2:-bzimage}" in
bzimage) p=$(vm_bzimage "$flavour") ;;
build) p=$build ;;
src) p=$(vm_src_dir "$flavour") ;;
vmlinux) p=$build/vmlinux ;;
release)
	[ -f "$build/include/config/kernel.release" ] || die "$flavour kernel not built: vm/kernel-build.sh $flavour"
	cat "$build/include/config/kernel.release"
	exit 0
	;;
*) die "unknown WHAT '$2' (bzimage, build, src, vmlinux, release)" ;;
esac
[ -e "$p" ] || die "$p does not exist: run vm/kernel-build.sh $flavour"
echo "$p"
