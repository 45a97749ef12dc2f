#!/usr/bin/env bash
# usage: deps-own-kernel.sh
# What the vm/ scripts ask scripts/deps.sh to install, without installing anything:
# dpkg-query is a stand-in that says no package is installed, apt-get one that only
# records its arguments (and refuses to run: nothing is installed), so deps.sh names every
# package of the request in its "installing Debian packages:" line. vm/run.sh with your
# own bzImage, vm/mkdisk.sh (and vm/mkinitramfs.sh, written the same way) must leave out
# Debian's kernel source packages (linux-source-*), which only kernel-build.sh needs;
# deps.sh vm must still list them. Each run's exit status and message are checked; the
# first that differs prints "FAIL: ..." and the script exits 1.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/bin"
printf '#!/bin/sh\nexit 1\n' >"$t/bin/dpkg-query"
printf '#!/bin/sh\necho "$*" >>"%s/apt.log"\nexit 1\n' "$t" >"$t/bin/apt-get"
chmod +x "$t/bin/dpkg-query" "$t/bin/apt-get"
export PATH="$t/bin:$PATH" LIBERRSEQ_CACHE=$t/cache
last=

fail() {
	echo "FAIL: $*"
	echo "--- stderr of: $last"
	cat "$t/err"
	exit 1
}
# run STATUS CMD...: CMD's stderr in $t/err; it must exit STATUS
run() {
	local want=$1 rc=0
	shift
	last="${*#"$root/"}"
	timeout 60 "$@" >/dev/null 2>"$t/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "exit status $rc, want $want"
}
# asked: the packages deps.sh set out to install, one a line
asked() { sed -n 's/^==> installing Debian packages: //p' "$t/err" | tr ' ' '\n'; }
want() { asked | grep -qx -- "$1" || fail "$1 is not asked for: $(asked | tr '\n' ' ')"; }
never() { ! asked | grep -q -- "$1" || fail "asked for $(asked | grep -- "$1" | tr '\n' ' ')"; }

# the vm group as kernel-build.sh asks for it: Debian's kernel sources and QEMU
run 1 "$root/scripts/deps.sh" vm
want linux-source-6.1
want linux-source-6.12
want qemu-system-x86
# your own bzImage: QEMU and the guest's userland, no kernel source (deps.sh fails here,
# the stand-in apt-get refusing, so run.sh stops with 120 before it boots anything)
run 120 "$root/vm/run.sh" --kernel "$t/linux/arch/x86/boot/bzImage" -- true
want qemu-system-x86
want busybox-static
never '^linux-source-'
run 1 "$root/vm/mkdisk.sh" raw 1M "$t/disk.img"
want qemu-system-x86
never '^linux-source-'
run 1 "$root/scripts/deps.sh" --skip 'linux-source-*' --skip 'qemu-*' vm
want busybox-static
never '^linux-source-'
never '^qemu-'
run 1 "$root/scripts/deps.sh" --skip
[ "$(cat "$t/err")" = "error: --skip needs a pattern" ] || fail "not the message for --skip alone"
echo "deps-own-kernel: PASS"
