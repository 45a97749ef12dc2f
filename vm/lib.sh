# Sourced by the vm/ scripts: paths of the kernel trees, the pinned source version, ccache.
# shellcheck shell=bash
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$VM_DIR/../scripts/lib.sh"
. "$VM_DIR/kernel-line.sh"

VM_CACHE=$LIBERRSEQ_CACHE/vm
# Layout: $VM_CACHE/kernel-LINE/FLAVOUR/{src,build}. The same relative path from build to src
# in both flavours lets ccache (CCACHE_BASEDIR=$VM_CACHE/kernel-LINE) share objects between
# them; the two lines share the ccache directory.
VM_KERNEL_CACHE=$VM_CACHE/kernel-$KLINE
VM_FLAVOURS="stock patched"
PATCH_DIR=$KPORT_LINE_DIR/patches

vm_check_flavour() {
	case "$1" in
	stock | patched) ;;
	*) die "unknown kernel flavour '$1' (want: $VM_FLAVOURS; the line is LIBERRSEQ_KERNEL, one of: $KERNEL_LINES)" ;;
	esac
}
vm_src_dir() { echo "$VM_KERNEL_CACHE/$1/src"; }
vm_build_dir() { echo "$VM_KERNEL_CACHE/$1/build"; }
vm_bzimage() { echo "$VM_KERNEL_CACHE/$1/build/arch/x86/boot/bzImage"; }

# Warn (loudly, but go on) when the installed source package is not the pinned version.
vm_check_source_version() {
	local v
	v=$(dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PKG" 2>/dev/null) ||
		die "$LINUX_SOURCE_PKG is not installed (run scripts/deps.sh vm)"
	[ -f "$LINUX_TARBALL" ] || die "$LINUX_TARBALL missing (reinstall $LINUX_SOURCE_PKG)"
	if [ "$v" != "$LINUX_SOURCE_VERSION" ]; then
		echo "WARNING: $LINUX_SOURCE_PKG $v is installed but vm/kernel-$KLINE.env pins" \
			"$LINUX_SOURCE_VERSION; results may differ from the pinned kernel." >&2
		echo "WARNING: update LINUX_SOURCE_VERSION in vm/kernel-$KLINE.env once checked." >&2
	fi
	VM_SOURCE_VERSION_INSTALLED=$v
}

# Environment for every kernel make: ccache, and fixed build identity so ccache hits.
vm_kbuild_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$VM_CACHE/ccache}
	export CCACHE_BASEDIR=$VM_KERNEL_CACHE
	export CCACHE_NOHASHDIR=1
	# The only absolute source path left on the command line after base_dir rewriting; it maps
	# the tree prefix away, so the objects do not depend on it (lets stock/patched share hits).
	export CCACHE_IGNOREOPTIONS="-fmacro-prefix-map=*"
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
	export CCACHE_COMPILERCHECK=content
	export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970"
	export KBUILD_BUILD_USER=liberrseq
	export KBUILD_BUILD_HOST=liberrseq
	export KBUILD_BUILD_VERSION=1
	export ARCH=x86_64
	unset CROSS_COMPILE KBUILD_OUTPUT
}

# Run make on a flavour's tree (out of tree, niced, ccache'd).
vm_kmake() {
	local flavour=$1
	shift
	nice -n "${VM_NICE:-10}" make -s -C "$(vm_src_dir "$flavour")" O="$(vm_build_dir "$flavour")" \
		ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" "$@"
}
