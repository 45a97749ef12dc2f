#!/usr/bin/env bash
# Cross-build liberrseq for another Debian architecture and run its tests
# under qemu-user. See README.md beside this file.
#
# usage: cross.sh sysroot ARCH          fetch the target's Check/liburcu
#        cross.sh test ARCH [CTEST...]  sysroot, configure, build, ctest
# ARCH: arm64 armhf i386 ppc64el s390x riscv64 (Debian's names)
#
# test runs the labels lib (unit, races, stress, example, table),
# kernel-diff and modelcheck (explorer, wrap, zero-cost; not Spin) unless
# CTEST arguments are given. Sizes for the emulator (defaults):
#   LIBERRSEQ_CROSS_STRESS_ROUNDS     stress, stress64 rounds   (20000, as native)
#   LIBERRSEQ_CROSS_KERNEL_DIFF_OPS   kernel-diff operations    (2000000, as native)
#   LIBERRSEQ_CROSS_JOBS              build jobs                (nproc)
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

# sysroot ARCH: prints the sysroot directory. riscv64 is no release
# architecture of Debian 12: its archive has no riscv64 packages, so its
# sysroot stays empty and the tests that need Check or liburcu are not built.
# Elsewhere a package that cannot be fetched is an error, never a silently
# smaller test run.
sysroot() {
	local arch=$1 top=$LIBERRSEQ_CACHE/cross/$1 apt
	local sys=$top/sysroot stamp=$top/sysroot/.stamp
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$TARGET_PKGS" ]; then
		echo "$sys"; return
	fi
	rm -rf "$sys"
	mkdir -p "$sys"
	if [ "$arch" = riscv64 ]; then
		log "cross $arch: no $arch packages in Debian 12: Check and liburcu tests left out"
		echo "$TARGET_PKGS" >"$stamp"
		echo "$sys"; return
	fi
	apt=$top/apt
	rm -rf "$apt"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
	: >"$apt/status"
	local opts=(-o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
		-o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
		-o "Dir::Cache=$apt/cache" -o "Debug::NoLocking=1"
		-o "APT::Sandbox::User=root" -q)
	log "cross $arch: apt-get update (private state in $apt)"
	# A mirror in the middle of a sync fails one index ("File has unexpected size"): try
	# three times; then go on with the indexes that did download, if any: the download
	# below fails on any package they do not list.
	local try
	for try in 1 2 3; do
		apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 && break
		if [ $try -lt 3 ]; then
			log "cross $arch: apt-get update failed (try $try of 3), again in 15 s"
			sleep 15
		elif compgen -G "$apt/lists/*_Packages*" >/dev/null; then
			grep '^E:' "$apt/update.log" >&2 || true
			log "cross $arch: apt-get update failed 3 times; going on with the indexes it got"
		else
			cat "$apt/update.log" >&2
			die "apt-get update for $arch failed"
		fi
	done
	local p deb
	for p in $TARGET_PKGS; do
		(cd "$apt/debs" && apt-get "${opts[@]}" download "$p:$arch") \
			>>"$apt/download.log" 2>&1 ||
			{ tail -5 "$apt/download.log" >&2; die "cross $arch: cannot fetch $p:$arch"; }
	done
	for deb in "$apt"/debs/*.deb; do
		dpkg-deb -x "$deb" "$sys"
	done
	echo "$TARGET_PKGS" >"$stamp"
	log "cross $arch: sysroot $sys: $(cd "$apt/debs" && echo *.deb)"
	echo "$sys"
}

# toolchain ARCH SYSROOT: writes the CMake toolchain file, prints its path.
toolchain() {
	local file=$LIBERRSEQ_CACHE/cross/$1/toolchain.cmake
	command -v "$triple-gcc" >/dev/null ||
		die "$triple-gcc is missing: scripts/deps.sh cross"
	command -v "$qemu" >/dev/null ||
		die "$qemu is missing: scripts/deps.sh cross"
	cat >"$file" <<TC
# Written by liberrseq/cross/cross.sh for $1.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${triple%%-*})
set(CMAKE_C_COMPILER $triple-gcc)
# Every test program runs under qemu-user; -L finds the target's ld.so and
# libc (Debian's libc6-*-cross). LD_LIBRARY_PATH keeps the guest's loader
# away from the host's /etc/ld.so.cache, which qemu serves when the prefix
# has none: on i386 it names the host's /lib32 libc (libc6-i386), another
# glibc build than the cross ld.so, and the programs hang before main.
set(CMAKE_CROSSCOMPILING_EMULATOR $(command -v "$qemu");-L;/usr/$triple;-E;LD_LIBRARY_PATH=/usr/$triple/lib)
# The target's Check and liburcu, unpacked from Debian's debs.
set(ENV{PKG_CONFIG_LIBDIR} "$2/usr/lib/$multiarch/pkgconfig:$2/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "$2")
set(CMAKE_BUILD_RPATH "$2/usr/lib/$multiarch")
TC
	echo "$file"
}

# test ARCH [CTEST...]
run_tests() {
	local arch=$1; shift
	local sys tc build
	sys=$(sysroot "$arch")
	tc=$(toolchain "$arch" "$sys")
	build=$(build_dir "cross/$arch/build")
	log "cross $arch: configuring in $build"
	cmake -S "$LIBERRSEQ_ROOT" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$tc" \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBERRSEQ_LIBRARY_ONLY=ON \
		-DLIBERRSEQ_STRESS_ROUNDS="${LIBERRSEQ_CROSS_STRESS_ROUNDS:-20000}" \
		-DLIBERRSEQ_KERNEL_DIFF_OPS="${LIBERRSEQ_CROSS_KERNEL_DIFF_OPS:-2000000}" \
		>"$build.configure.log" 2>&1 ||
		{ cat "$build.configure.log" >&2; die "cross $arch: configure failed"; }
	grep -E '^-- liberrseq' "$build.configure.log" | sed "s/^/cross $arch: /" >&2 || true
	log "cross $arch: building"
	nice cmake --build "$build" -j "${LIBERRSEQ_CROSS_JOBS:-$(nproc)}" \
		>"$build.build.log" 2>&1 ||
		{ tail -40 "$build.build.log" >&2; die "cross $arch: build failed"; }
	log "cross $arch: testing under $qemu"
	cd "$build"
	if [ $# -eq 0 ]; then
		set -- -L '^(lib|kernel-diff|modelcheck)$'
	fi
	ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
}

cmd=${1:-}; [ $# -ge 2 ] || die "usage: $0 sysroot|test ARCH [ctest args...]"
arch=$2; shift 2
read -r triple multiarch qemu <<<"$(arch_info "$arch")"
case $cmd in
sysroot) sysroot "$arch" ;;
test) run_tests "$arch" "$@" ;;
*) die "unknown command '$cmd'" ;;
esac
