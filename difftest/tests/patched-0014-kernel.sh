#!/usr/bin/env bash
# Build the 6.1 series as it was before the kernel-port review's fixes (kernel-port's patches
# at 3d8a175^, when they lived in kernel-port/patches: the kernel patched-0014 of
# recordings/README.md) into a cache of its own, and print the campaign command that holds
# it to the patched contract (difftest/results/pre-review-series.txt;
# recordings/6.1/*/defects-patched-0014 hold that run's results).
# usage: difftest/tests/patched-0014-kernel.sh [CACHE]   (default ~/.cache/liberrseq-prereview)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/liberrseq-prereview}
rev=3d8a175^
tree=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
# this tree's build scripts and kernel config, the old series
git -C "$root" worktree add -q --detach "$tree" HEAD
rm -rf "$tree/kernel-port/6.1/patches"
mkdir -p "$tree/kernel-port/6.1/patches"
git -C "$root" archive "$rev" kernel-port/patches | tar -x -C "$tree/kernel-port/6.1/patches" \
	--strip-components=2
[ -f "$tree/kernel-port/6.1/patches/series" ] || { echo "no series at $rev" >&2; exit 1; }
echo "building the pre-review series ($(grep -c '^0' "$tree/kernel-port/6.1/patches/series") patches) in $cache"
# the ccache of the main cache serves both
LIBERRSEQ_CACHE=$cache CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/liberrseq/vm/ccache} \
	LIBERRSEQ_KERNEL=6.1 "$tree/vm/kernel-build.sh" -q patched
b=$cache/vm/kernel-6.1/patched/build
echo "run: difftest/campaign.sh --ci --kernel $b/arch/x86/boot/bzImage --kbuild $b --contract patched"
