#!/usr/bin/env bash
# Check that the lib/errseq_vectors.h the series adds to the kernel is byte for byte
# liberrseq/tests/errseq_vectors.h, the table the userspace unit tests read.
# usage: kernel-port/check-vectors.sh [--mutate]
#   --mutate  compare against a copy with one expected value changed (expected exit: 1)
# exit: 0 identical, 1 different (diff printed), 2 could not check
set -uo pipefail
. "$(dirname "$0")/lib.sh"
trap 'exit 2' ERR

vec=$LIBERRSEQ_ROOT/liberrseq/tests/errseq_vectors.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${1:-}" = --mutate ]; then
	sed '0,/0x00000005, 0)/s//0x00000006, 0)/' "$vec" >"$tmp/vec.h"
	cmp -s "$vec" "$tmp/vec.h" && { echo "error: --mutate changed nothing" >&2; exit 2; }
	vec=$tmp/vec.h
fi
[ -f "$vec" ] || { echo "error: $vec missing" >&2; exit 2; }
( kp_patched_file lib/errseq_vectors.h "$tmp/kernel.h" ) || exit 2
if ! diff -u --label "$vec" --label "kernel lib/errseq_vectors.h" "$vec" "$tmp/kernel.h"; then
	echo "FAIL: the kernel's lib/errseq_vectors.h differs from liberrseq/tests/errseq_vectors.h" >&2
	exit 1
fi
echo "OK ($KLINE): kernel lib/errseq_vectors.h is identical to liberrseq/tests/errseq_vectors.h ($(grep -c '^ERRSEQ_VECTOR' "$vec") rows)"
