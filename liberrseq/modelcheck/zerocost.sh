#!/bin/sh
# zerocost.sh HOOKED PRODUCTION...
#
# The scheduling hooks cost nothing in the production build: no object of
# PRODUCTION (the libraries users get) refers to errseq_sched_*, and no call
# to them is in its code, while HOOKED (the -DLIBERRSEQ_SCHED_HOOKS build)
# does call them, so the check is known to bite.
set -eu

hooked=$1
shift
n=$(objdump -dr "$hooked" | grep -cE 'R_X86_64_[A-Z0-9]+\s+errseq_sched_(point|lock|unlock)' || true)
echo "$(basename "$hooked"): $n relocations to errseq_sched_* in its code"
if [ "$n" -eq 0 ]; then
	echo "FAIL: the hooked build calls no hook; this check would not bite"
	exit 1
fi
for f in "$@"; do
	if nm "$f" 2>/dev/null | grep -q errseq_sched_ ||
	   objdump -dr "$f" | grep -q 'errseq_sched_'; then
		echo "FAIL: $(basename "$f") refers to errseq_sched_*"
		exit 1
	fi
	echo "$(basename "$f"): no reference to errseq_sched_*"
done
echo "OK: the hooks are compiled out of the production build"
