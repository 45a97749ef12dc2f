#!/usr/bin/env bash
# Build a line's series as it was before the third kernel-port review's fixes (kernel-port
# at f9fb592^ for 6.1, 783e634^ for 6.12: the evicted error lost after a failed read of
# its inode, fallocate's waits taking fsync's report, ext2's directory changes failing
# again) into a cache of its own, and print the campaign command that holds it to the
# patched contract (difftest/results/pre-fix-series.txt).
# usage: difftest/tests/pre-fix-kernel.sh LINE [CACHE]   (LINE 6.1 or 6.12; CACHE default
#        ${XDG_CACHE_HOME:-~/.cache}/liberrseq-prefix)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
line=${1:?usage: pre-fix-kernel.sh 6.1|6.12 [CACHE]}
cache=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/liberrseq-prefix}
case $line in
6.1) rev=f9fb592^ ;;
6.12) rev=783e634^ ;;
*) echo "pre-fix-kernel.sh: line $line: 6.1 or 6.12" >&2; exit 2 ;;
esac
tree=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
# this tree's build scripts and kernel config, the old series
git -C "$root" worktree add -q --detach "$tree" HEAD
rm -rf "$tree/kernel-port/$line/patches"
git -C "$root" archive "$rev" "kernel-port/$line/patches" | tar -x -C "$tree"
[ -f "$tree/kernel-port/$line/patches/series" ] || { echo "no series at $rev" >&2; exit 1; }
echo "building the $line series before the third review's fixes ($rev," \
	"$(grep -c '^0' "$tree/kernel-port/$line/patches/series") patches) in $cache"
LIBERRSEQ_CACHE=$cache CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/liberrseq/vm/ccache} \
	LIBERRSEQ_KERNEL=$line "$tree/vm/kernel-build.sh" -q patched
b=$cache/vm/kernel-$line/patched/build
echo "run: LIBERRSEQ_KERNEL=$line difftest/campaign.sh --kernel $b/arch/x86/boot/bzImage" \
	"--kbuild $b --contract patched,linux=$line --script FILE..."
