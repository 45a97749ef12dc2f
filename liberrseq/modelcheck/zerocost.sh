#!/bin/sh
# zerocost.sh HOOKED PRODUCTION...
#
# The scheduling hooks cost nothing in the production build: no object of
# PRODUCTION (the libraries users get) refers to errseq_sched_*, and no call
# to them is in its code, while HOOKED (the -DLIBERRSEQ_SCHED_HOOKS build)
# does call them, so the check is known to bite.
#
# Any architecture: the relocation's name is not matched (R_X86_64_PLT32,
# R_AARCH64_CALL26, R_390_PLT32DBL, ...), only the symbol it points at.
# OBJDUMP and NM name the target's tools (CMake passes CMAKE_OBJDUMP and
# CMAKE_NM; the host's objdump cannot disassemble another architecture, and
# an objdump that fails is a failure here, not an empty listing).
set -eu

OBJDUMP=${OBJDUMP:-objdump}
NM=${NM:-nm}

disasm() {
	"$OBJDUMP" -dr "$1" >"$tmp" 2>"$tmp.err" || {
		cat "$tmp.err" >&2
		echo "FAIL: $OBJDUMP cannot read $(basename "$1")"
		exit 1
	}
	if grep -q "can't disassemble" "$tmp.err"; then
		cat "$tmp.err" >&2
		echo "FAIL: $OBJDUMP cannot disassemble $(basename "$1"): set OBJDUMP"
		exit 1
	fi
}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.err"' EXIT

hooked=$1
shift
disasm "$hooked"
n=$(grep -cE 'R_[A-Za-z0-9_]+[[:space:]]+errseq_sched_(point|lock|unlock)' "$tmp" || true)
echo "$(basename "$hooked"): $n relocations to errseq_sched_* in its code"
if [ "$n" -eq 0 ]; then
	echo "FAIL: the hooked build calls no hook; this check would not bite"
	exit 1
fi
for f in "$@"; do
	disasm "$f"
	if "$NM" "$f" 2>/dev/null | grep -q errseq_sched_ ||
	   grep -q 'errseq_sched_' "$tmp"; then
		echo "FAIL: $(basename "$f") refers to errseq_sched_*"
		exit 1
	fi
	echo "$(basename "$f"): no reference to errseq_sched_*"
done
echo "OK: the hooks are compiled out of the production build"
