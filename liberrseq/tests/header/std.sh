#!/usr/bin/env bash
# What the public headers need of the compiler (README.md, "Requirements"):
# each compiles with -std=c99 -pedantic -Wall -Wextra -Werror, inline
# functions used; with -std=c89 errseq.h stops at its own #error naming C99,
# and without the __atomic builtins (__ATOMIC_RELAXED undefined) at the one
# naming them. Compiles only (-c), so it runs for cross compilers too.
#
# usage: std.sh INCLUDE_DIR CC [CC...]
set -uo pipefail
inc=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat >"$work/core.c" <<'C'
#include <errno.h>
#include <errseq.h>
int main(void)
{
	errseq_t e = 0;
	errseq64_t e64 = 0;
	struct errseq_cursor c;
	struct errseq64_cursor c64;

	errseq_cursor_init(&c, &e);
	errseq64_cursor_init(&c64, &e64);
	errseq_record(&e, -EIO);
	errseq_record64(&e64, -EIO);
	return errseq_cursor_report(&c, &e) + errseq64_cursor_report(&c64, &e64) +
	       errseq_check_fast(&e, 0) + errseq_check_fast64(&e64, 0) +
	       errseq_err_valid(-EIO);
}
C
printf '#include <errseq_table.h>\nint main(void) { return ERRSEQ_TABLE_CREATED; }\n' \
	>"$work/table.c"

# expect_error CC FLAGS MESSAGE: compiling core.c fails, and the first error
# is errseq.h's #error with MESSAGE.
expect_error() {
	local cc=$1 flags=$2 msg=$3 out first
	# shellcheck disable=SC2086
	if out=$("$cc" $flags -I"$inc" -c "$work/core.c" -o "$work/o" 2>&1); then
		fail "$cc $flags: compiled; expected errseq.h's #error"
		return
	fi
	first=$(grep -m1 'error' <<<"$out")
	if [[ $first != *errseq.h:*"$msg"* ]]; then
		fail "$cc $flags: first error is not errseq.h's '$msg': $first"
	else
		echo "ok   $cc $flags: ${first#*error: }"
	fi
}

for cc in "$@"; do
	for src in core table; do
		if out=$("$cc" -std=c99 -pedantic -Wall -Wextra -Werror -I"$inc" \
			-c "$work/$src.c" -o "$work/o" 2>&1); then
			echo "ok   $cc -std=c99 -pedantic -Werror: $src.c"
		else
			fail "$cc -std=c99 -pedantic -Werror: $src.c: $out"
		fi
	done
	expect_error "$cc" "-std=c89" "needs C99 or later"
	expect_error "$cc" "-std=c99 -U__ATOMIC_RELAXED" "needs the __atomic builtins"
done
[ "$fails" -eq 0 ] || exit 1
echo "the public headers need C99 and __atomic, and say so ($*)"
