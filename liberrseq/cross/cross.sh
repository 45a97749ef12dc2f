#!/usr/bin/env bash
# Cross-build liberrseq for another Debian architecture and run its tests
# under qemu-user. See README.md beside this file.
#
# usage: cross.sh sysroot ARCH          fetch the target's Check/liburcu
#        cross.sh test ARCH [CTEST...]  sysroot, configure, build, ctest
# ARCH: arm64 armhf i386 ppc64el s390x riscv64 (Debian's names)
#
# The target's libraries come from Debian's archive through a private apt
# state under the cache (dpkg's architectures on the host are not changed)
# and are unpacked with dpkg-deb -x into
# $LIBERRSEQ_CACHE/cross/ARCH/sysroot.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

arch_info() {
	# Debian arch -> GNU triple, multiarch directory, qemu-user binary
	case $1 in
	arm64)   echo aarch64-linux-gnu aarch64-linux-gnu qemu-aarch64-static ;;
	armhf)   echo arm-linux-gnueabihf arm-linux-gnueabihf qemu-arm-static ;;
	i386)    echo i686-linux-gnu i386-linux-gnu qemu-i386-static ;;
	ppc64el) echo powerpc64le-linux-gnu powerpc64le-linux-gnu qemu-ppc64le-static ;;
	s390x)   echo s390x-linux-gnu s390x-linux-gnu qemu-s390x-static ;;
	riscv64) echo riscv64-linux-gnu riscv64-linux-gnu qemu-riscv64-static ;;
	*) die "unknown architecture '$1' (arm64 armhf i386 ppc64el s390x riscv64)" ;;
	esac
}

# The target's packages the tests link: Check (and its libsubunit) for the
# unit and races tests, liburcu for the errseq table.
TARGET_PKGS="check libsubunit-dev libsubunit0 liburcu-dev liburcu8"

# sysroot ARCH: prints the sysroot directory. A package the archive lacks for
# ARCH (riscv64 is no release architecture of Debian 12) is left out, and the
# tests that need it are not built.
sysroot() {
	local arch=$1 top=$LIBERRSEQ_CACHE/cross/$1 apt
	local sys=$top/sysroot stamp=$top/sysroot/.stamp
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$TARGET_PKGS" ]; then
		echo "$sys"; return
	fi
	apt=$top/apt
	rm -rf "$sys"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$sys"
	: >"$apt/status"
	local opts=(-o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
		-o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
		-o "Dir::Cache=$apt/cache" -o "Debug::NoLocking=1" -q)
	log "cross $arch: apt-get update (private state in $apt)"
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		{ cat "$apt/update.log" >&2; die "apt-get update for $arch failed"; }
	local p got=()
	for p in $TARGET_PKGS; do
		if (cd "$apt/debs" && apt-get "${opts[@]}" download "$p:$arch") >>"$apt/download.log" 2>&1; then
			got+=("$p")
		else
			log "cross $arch: Debian has no $p for $arch: tests needing it are not built"
		fi
	done
	local deb
	for deb in "$apt"/debs/*.deb; do
		[ -e "$deb" ] || continue
		dpkg-deb -x "$deb" "$sys"
	done
	echo "$TARGET_PKGS" >"$stamp"
	log "cross $arch: sysroot $sys has: ${got[*]:-nothing}"
	echo "$sys"
}

cmd=${1:-}; [ $# -ge 2 ] || die "usage: $0 sysroot|test ARCH [ctest args...]"
arch=$2; shift 2
read -r triple multiarch qemu <<<"$(arch_info "$arch")"
case $cmd in
sysroot) sysroot "$arch" ;;
*) die "unknown command '$cmd'" ;;
esac
