#!/usr/bin/env bash
# Check that the patched kernel's lib/errseq.c is the kernel's prelude (SPDX line, #include
# lines, blank lines) followed byte for byte by liberrseq/src/errseq_core.c.
# The patched file is rebuilt from the pristine lib/errseq.c in $LINUX_TARBALL plus every
# kernel-port/LINE/patches/series patch's lib/errseq.c hunks, in order (LINE:
# LIBERRSEQ_KERNEL, default 6.1).
# usage: kernel-port/check-core.sh [--core FILE] [--mutate]
#   --core FILE  compare against FILE instead of liberrseq/src/errseq_core.c
#   --mutate     compare against a copy of the core with one character changed (to show the
#                check catches a difference: then exit 1 is the expected outcome)
# exit: 0 identical, 1 different (diff printed), 2 could not check
set -uo pipefail
. "$(dirname "$0")/lib.sh"
trap 'exit 2' ERR

core=$LIBERRSEQ_ROOT/liberrseq/src/errseq_core.c
mutate=0
while [ $# -gt 0 ]; do
	case "$1" in
	--core) core=$2; shift 2 ;;
	--mutate) mutate=1; shift ;;
	*) echo "usage: $0 [--core FILE] [--mutate]" >&2; exit 2 ;;
	esac
done
[ -f "$core" ] || { echo "error: $core missing" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $mutate -eq 1 ]; then
	# Double the counter increment: a one-character change deep in the file.
	sed 's/new += ERRSEQ_CTR_INC;/new += ERRSEQ_CTR_INC * 2;/' "$core" >"$tmp/core.c"
	cmp -s "$core" "$tmp/core.c" && { echo "error: --mutate changed nothing" >&2; exit 2; }
	core=$tmp/core.c
fi

( kp_patched_file lib/errseq.c "$tmp/errseq.c" ) || exit 2
first=$(grep -n -m1 -x '/\*' "$tmp/errseq.c" | cut -d: -f1)
[ -n "$first" ] || { echo "error: no '/*' line in the patched lib/errseq.c" >&2; exit 2; }
head -n $((first - 1)) "$tmp/errseq.c" >"$tmp/prelude"
tail -n +"$first" "$tmp/errseq.c" >"$tmp/body"

# The prelude may hold only the SPDX line, #include lines and blank lines.
if grep -vxE '// SPDX-License-Identifier: [^ ].*|#include <[a-z0-9_/]+\.h>|' "$tmp/prelude" >"$tmp/extra"; then
	echo "FAIL: lib/errseq.c prelude holds more than SPDX and #include lines:" >&2
	cat "$tmp/extra" >&2
	exit 1
fi
if ! diff -u --label "core ($core)" --label "patched lib/errseq.c (from line $first)" \
	"$core" "$tmp/body"; then
	echo "FAIL: patched lib/errseq.c differs from the liberrseq core" >&2
	exit 1
fi
echo "OK ($KLINE): patched lib/errseq.c = $((first - 1))-line prelude + $(wc -l <"$core")-line core, identical"
