#!/usr/bin/env bash
# Run liberrseq/tests/errseq_vectors.h against the kernel's own lib/errseq.c compiled in
# userspace over liberrseq's kernel shim (liberrseq/tests/kernel/: include/linux/ and the
# WARN counter warn.c, the same as the library's kernel-diff test): both the pristine file of
# the kernel line (LIBERRSEQ_KERNEL, default 6.1) and the file as the series leaves it. This
# is how the expected values in the table were double-checked.
# usage: kernel-port/tests/vectors-host.sh [pristine|patched]...   (default: both)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cc=${CC:-cc}
shim=$LIBERRSEQ_ROOT/liberrseq/tests/kernel
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ $# -gt 0 ] || set -- pristine patched
for which in "$@"; do
	case "$which" in
	pristine) src=$(kp_pristine_file lib/errseq.c); [ -n "$src" ] || die "no lib/errseq.c in tarball" ;;
	patched) kp_patched_file lib/errseq.c "$tmp/errseq-patched.c"; src=$tmp/errseq-patched.c ;;
	*) die "usage: $0 [pristine|patched]..." ;;
	esac
	$cc -std=gnu11 -O2 -Wall -Werror -I"$shim/include" -I"$shim" \
		-I"$LIBERRSEQ_ROOT/liberrseq/tests" "$KP_DIR/tests/vectors_check.c" "$src" \
		"$shim/warn.c" -o "$tmp/vc-$which"
	echo "== $which lib/errseq.c"
	"$tmp/vc-$which"
done
