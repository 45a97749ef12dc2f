#!/usr/bin/env bash
# usage: install.sh BUILD SRC [--delete PIECE]
#        install.sh BUILD SRC bites
# cmake --install of difftest (component difftest, difftest/install.cmake) into a temporary
# DESTDIR with the prefix /opt/liberrseq, the prefix then moved elsewhere (the install must
# find its pieces relative to itself, never in the source or build tree), and the installed
# commands run from there, with no guest: difftest --version, difftest predict on a small
# script, liberrseq-difftest-campaign --help, its --dry-run (the batches with the installed
# scenarios and tools), a --dry-run of a kernel of your own (its .config checked against the
# installed guest.config, the contract checked with the installed scenarios) and of your
# own --script. Each command must exit with the status given AND print what is given; the
# first that does not prints "FAIL: ..." with its output, and the script exits 1.
#   --delete PIECE  deletes PIECE (a path under the prefix) after the install: the check
#                   must then fail
#   bites           runs the check once per piece of a list with --delete, each of which
#                   must exit 1 with its "FAIL: ..." line naming what broke
# BUILD: the cmake build tree; SRC: the source tree. Nothing is written outside a temporary
# directory (LIBERRSEQ_CACHE points there).
set -uo pipefail
build=$1 src=$2
shift 2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# run STATUS CMD...: CMD run from $t/cwd (scripts/tests/cmdcheck.sh has run, has, fail)
what=
target() { (cd "$t/cwd" && "$@"); }
. "$src/scripts/tests/cmdcheck.sh"

if [ "${1:-}" = bites ]; then
	# PIECE|what the FAIL line must say|what a line of the whole output must say
	n=0
	while IFS='|' read -r piece want said; do
		[ -n "$piece" ] || continue
		rc=0
		"$0" "$build" "$src" --delete "$piece" >"$t/bite" 2>&1 || rc=$?
		if [ $rc -ne 1 ] || ! grep -qE "^FAIL: $want" "$t/bite" || ! grep -qE "$said" "$t/bite"; then
			echo "FAIL: bites: with $piece deleted, exit status $rc, want 1, a line /^FAIL: $want/ and one /$said/:"
			cat "$t/bite"
			exit 1
		fi
		echo "bites: $piece deleted: $(grep -m1 '^FAIL: ' "$t/bite")"
		n=$((n + 1))
	done <<'EOF'
bin/difftest|.*/bin/difftest --version: exit status 127, want 0|/bin/difftest: No such file or directory
bin/liberrseq-difftest-campaign|.*/bin/liberrseq-difftest-campaign --help: exit status 127, want 0|liberrseq-difftest-campaign: No such file or directory
share/liberrseq/difftest/campaign.sh|.*/bin/liberrseq-difftest-campaign --help: exit status 127, want 0|share/liberrseq/difftest/campaign\.sh: not found
libexec/liberrseq/dtguest|.*--dry-run.*: exit status 2, want 0|^campaign\.sh: error: no .*/bin/difftest or .*/libexec/liberrseq/dtguest \(the install is incomplete: cmake --install again\)$
share/liberrseq/difftest/installed.sh|.*--dry-run.*: exit status 1, want 0|^\[difftest +[0-9]+s\] building host tools in 
share/liberrseq/vm/lib.sh|.*--help: exit status 1, want 0|share/liberrseq/difftest/\.\./vm/lib\.sh: No such file or directory
share/liberrseq/vm/kernel.env|.*--help: exit status 1, want 0|share/liberrseq/vm/kernel\.env: No such file or directory
share/liberrseq/difftest/scenarios/pg-evict.dt|[0-9]+ scenarios installed, [0-9]+ in the source$|plus [0-9]+ scenarios$
share/liberrseq/difftest/kmod/errseq_inject.c|.*--dry-run.*: exit status 2, want 0|^campaign\.sh: error: missing in .*/share/liberrseq: difftest/kmod/errseq_inject\.c \(the install is incomplete: cmake --install again\)$
share/liberrseq/vm/mkinitramfs.sh|.*--dry-run.*: exit status 2, want 0|^campaign\.sh: error: missing in .*/share/liberrseq: vm/mkinitramfs\.sh \(the install is incomplete
share/liberrseq/difftest/guest.config|.*--dry-run.*: exit status 2, want 0|^campaign\.sh: error: missing in .*/share/liberrseq: difftest/guest\.config \(the install is incomplete
share/liberrseq/scripts/deps.sh|.*--dry-run.*: exit status 2, want 0|^campaign\.sh: error: missing in .*/share/liberrseq: scripts/deps\.sh \(the install is incomplete
EOF
	echo "bites: PASS ($n pieces)"
	exit 0
fi

delete=
if [ "${1:-}" = --delete ]; then
	delete=${2:?--delete needs a piece}
fi

mkdir -p "$t/cwd"
export LIBERRSEQ_CACHE=$t/cache
unset DT_RUNNER DT_GUESTS VM_ACCEL VM_ACCEL_PROBE VM_TCG_THREAD VM_KVM_DEV LIBERRSEQ_KERNEL
rc=0
DESTDIR=$t/dest cmake --install "$build" --prefix /opt/liberrseq --component difftest \
	>"$t/out" 2>"$t/err" || rc=$?
last="cmake --install $build --component difftest"
[ $rc -eq 0 ] || fail "exit status $rc"
mv "$t/dest/opt/liberrseq" "$t/moved"
P=$t/moved
[ -z "$delete" ] || { [ -e "$P/$delete" ] || fail "--delete $delete: not installed"; rm -rf "${P:?}/$delete"; }

# nothing installed points back into the source or build tree (the binaries' debug
# information aside)
last="grep the installed scripts for $src and $build"
: >"$t/out" >"$t/err"
grep -rlF -e "$(realpath "$src")" -e "$(realpath "$build")" "$P/share" "$P/bin/liberrseq-difftest-campaign" \
	>"$t/out" 2>/dev/null && fail "installed files name the source or build tree"

# the tool
run 0 "$P/bin/difftest" --version
has out "^difftest \(liberrseq\) [0-9]+\.[0-9]+\.[0-9]+$"
cat >"$t/lost.dt" <<'EOF'
script lost
open d0 f0 creat
write d0 4096
error data f0 EIO
fsync d0
fsync d0
close d0
end
EOF
run 0 "$P/bin/difftest" predict -c stock -f ext2 "$t/lost.dt"
has out '^DT E lost$'
has out '^# op 3 \(line 5\): fsync d0$'
has out '^DT R 3 -1 EIO$'
has out '^DT R 4 0 0$'

# the campaign: help, and a dry run with the installed scenarios and tools
C=$P/bin/liberrseq-difftest-campaign
run 0 "$C" --help
has out '^usage: difftest/campaign\.sh \[options\]$'
has out '^  --dry-run '
run 0 "$C" --dry-run --fs ext2,tmpfs --ops 60 --out "$t/o"
has out "^dry run: nothing built or booted; the batches are in $t/o\$"
has out "^tools: $P/bin/difftest, $P/libexec/liberrseq/dtguest \\(installed\\)\$"
has out "^  ext2: [1-9][0-9]* scripts, [1-9][0-9]* ops \\($t/o/batch-ext2\\.dt\\)\$"
has out "^  tmpfs: [1-9][0-9]* scripts, "
has out '^kernel: stock, Linux [0-9.]+, contract stock and patched \(not built yet: vm/kernel-build\.sh stock, in a liberrseq checkout\)$'
has out '^runner: vm/run\.sh, accelerator '
want=$(ls "$src"/difftest/scenarios/*.dt | wc -l)
got=$(ls "$P"/share/liberrseq/difftest/scenarios/*.dt 2>/dev/null | wc -l)
[ "$got" = "$want" ] || fail "$got scenarios installed, $want in the source"
has err "^\[difftest +[0-9]+s\] batches: 2 filesystem mode\(s\), 2 random scripts x 30 ops each \(seed 1\), plus $want scenarios\$"
for s in "$src"/difftest/scenarios/*.dt; do
	grep -q "^script scn\.$(basename "$s" .dt)\$" "$t/o/batch-ext2.dt" "$t/o/batch-tmpfs.dt" ||
		grep -q "^script $(sed -n 's/^script //p' "$s" | head -n 1)\$" "$t/o/batch-tmpfs.dt" ||
		fail "scenario $(basename "$s") in no batch"
done
run 0 "$P/bin/difftest" check "$t/o/batch-ext2.dt" "$t/o/batch-tmpfs.dt"
[ ! -e "$LIBERRSEQ_CACHE" ] || fail "the dry run wrote to LIBERRSEQ_CACHE: $(ls "$LIBERRSEQ_CACHE")"

# a kernel of your own: the contract checked with the installed scenarios, its .config
# against the installed guest.config (one option left out: named)
mkdir -p "$t/kb/include/config"
: >"$t/bzImage"
echo 6.1.0 >"$t/kb/include/config/kernel.release"
grep '^CONFIG_' "$src/difftest/guest.config" | grep -v '^CONFIG_XFS_FS=' >"$t/kb/.config"
run 0 "$C" --kernel "$t/bzImage" --kbuild "$t/kb" --contract patched --fs ext2 --ops 0 --dry-run --out "$t/k"
has out "^kernel: $t/bzImage \\(module built against $t/kb\\), contract patched,linux=6\\.1\\.0\$"
has err "^campaign\\.sh: warning: $t/kb/\\.config lacks 1 of the [0-9]+ options of $P/share/liberrseq/difftest/guest\\.config \\(difftest/kconfig-check\\.sh\\):\$"
has err '^  missing: CONFIG_XFS_FS=y \(the config: not in it\) -- xfs mode$'

# your own scripts
run 0 "$C" --script "$t/lost.dt" --fs ext2 --dry-run --out "$t/s"
has out '^  ext2: 1 scripts, 6 ops '
cmp -s "$t/s/batch-ext2.dt" <("$P/bin/difftest" batch "$t/lost.dt") || fail "batch-ext2.dt is not the script given"

echo "install: PASS"
