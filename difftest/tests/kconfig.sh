#!/usr/bin/env bash
# usage: kconfig.sh CASE
# difftest/kconfig-check.sh, a CASE per ctest (difftest-kconfig-CASE). Each run's exit
# status and output are checked; the first that differs prints "FAIL: ..." and the script
# exits 1.
#   made-up  configs written here from difftest/guest.config: all present (0), one option
#            removed or not set (1, named with what needs it), one as a module (0, said),
#            usage errors (2)
#   vm       the .config of every vm/ kernel built in $LIBERRSEQ_CACHE (read, never
#            written): all of guest.config and of vm/config/base.config present; a copy of
#            one without CONFIG_XFS_FS, or with CONFIG_DEBUG_FS not set, fails naming it.
#            Exit 77 (skipped) when no vm/ kernel is built.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${LIBERRSEQ_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/liberrseq}"
K=$root/difftest/kconfig-check.sh
frag=$root/difftest/guest.config
case_=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
what=kconfig-check.sh
target() { "$K" "$@"; }
. "$here/../../scripts/tests/cmdcheck.sh"
n=$(grep -Ec '^CONFIG_|^# CONFIG_[A-Za-z0-9_]+ is not set$' "$frag")
[ "$n" -gt 10 ] || fail "guest.config has $n options"

# check_removed CONFIG: a copy without CONFIG_XFS_FS, and one with CONFIG_DEBUG_FS not set,
# each missing exactly that option
check_removed() {
	grep -v '^CONFIG_XFS_FS=' "$1" >"$t/no-xfs"
	run 1 "$t/no-xfs"
	has out '^missing: CONFIG_XFS_FS=y \(the config: not in it\) -- xfs mode$'
	[ "$(grep -c '^missing: ' "$t/out")" = 1 ] || fail "not one option missing"
	has out "^$t/no-xfs lacks 1 of the $n options of $frag\$"
	sed 's/^CONFIG_DEBUG_FS=y$/# CONFIG_DEBUG_FS is not set/' "$1" >"$t/no-debugfs"
	run 1 "$t/no-debugfs"
	has out '^missing: CONFIG_DEBUG_FS=y \(the config: not set\) -- errseq_inject\.ko: loaded in the guest, controlled through debugfs$'
	# an option that must not be set, set
	{ grep -v 'CONFIG_TMPFS_XATTR' "$1"; echo CONFIG_TMPFS_XATTR=y; } >"$t/xattr"
	run 1 "$t/xattr"
	has out '^missing: # CONFIG_TMPFS_XATTR is not set \(the config: =y\)'
}

case "$case_" in
made-up)
	grep '^CONFIG_' "$frag" >"$t/good"
	run 0 "$t/good"
	has out "^$t/good: all $n options of $frag present\$"
	lacks out '^(missing|module):'
	check_removed "$t/good"
	# a module will do, said; a wrong value will not
	sed 's/^CONFIG_EXT4_FS=y$/CONFIG_EXT4_FS=m/' "$t/good" >"$t/mod"
	run 0 "$t/mod"
	has out '^module: CONFIG_EXT4_FS=y \(the config: =m\) -- ext4-ordered and ext4-journal modes$'
	has out ", 1 as modules: load them in the guest first \\(campaign\\.sh --modules DIR\\)\$"
	# another fragment: a value and a "not set" line checked as such
	printf '# a comment\nCONFIG_NR_CPUS=4\n\n# off\n# CONFIG_EXT2_FS is not set\n' >"$t/frag"
	printf 'CONFIG_NR_CPUS=8\nCONFIG_EXT2_FS=y\n' >"$t/c"
	run 1 --fragment "$t/frag" "$t/c"
	has out '^missing: CONFIG_NR_CPUS=4 \(the config: =8\) -- a comment$'
	has out '^missing: # CONFIG_EXT2_FS is not set \(the config: =y\) -- off$'
	printf 'CONFIG_NR_CPUS=4\n# CONFIG_EXT2_FS is not set\n' >"$t/c"
	run 0 --fragment "$t/frag" "$t/c"
	# usage errors
	run 2
	has err '^kconfig-check\.sh: want one CONFIG, got 0$'
	run 2 "$t/none"
	has err "^kconfig-check\\.sh: $t/none: no such file\$"
	run 2 --fragment "$t/none" "$t/good"
	has err "^kconfig-check\\.sh: --fragment $t/none: no such file\$"
	echo 'hello' >"$t/text"
	run 2 "$t/text"
	has err "not a kernel \\.config"
	run 0 --help
	has out '^usage: difftest/kconfig-check\.sh '
	;;
vm)
	. "$root/vm/kernel.env"
	found=0
	for line in $KERNEL_LINES; do
		for flavour in stock patched; do
			c=$LIBERRSEQ_CACHE/vm/kernel-$line/$flavour/build/.config
			[ -f "$c" ] || continue
			found=$((found + 1))
			run 0 "$c"
			has out "^$c: all $n options of $frag present\$"
			lacks out '^(missing|module):'
			run 0 --fragment "$root/vm/config/base.config" "$c"
			has out "^$c: all [0-9]+ options of $root/vm/config/base\\.config present\$"
			# (read only: the copies are this script's)
			check_removed "$c"
		done
	done
	if [ "$found" = 0 ]; then
		echo "SKIP: no vm/ kernel built under $LIBERRSEQ_CACHE/vm (vm/kernel-build.sh stock)"
		exit 77
	fi
	echo "checked $found vm/ kernel config(s)"
	;;
*)
	echo "kconfig.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
echo "$case_: PASS"
