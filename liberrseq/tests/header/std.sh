#!/usr/bin/env bash
# What the public headers need of the compiler (README.md, "Requirements"):
# each compiles with -std=c99 -pedantic -Wall -Wextra -Werror; with -std=c89
# errseq.h stops at its own #error naming C99, and without the __atomic
# builtins (__ATOMIC_RELAXED undefined) at the one naming them. Compiles
# only (-c), so it runs for cross compilers too.
#
# usage: std.sh INCLUDE_DIR CC [CC...]
set -uo pipefail
inc=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Each header alone: its inline functions are definitions, compiled (and
# diagnosed) whether or not the program calls them.
for h in errseq errseq_table; do
	printf '#include <%s.h>\nint main(void) { return 0; }\n' "$h" >"$work/$h.c"
done

# expect_error CC FLAGS MESSAGE: compiling errseq.c fails, and the first error
# is errseq.h's #error with MESSAGE.
expect_error() {
	local cc=$1 flags=$2 msg=$3 out first
	# shellcheck disable=SC2086
	if out=$("$cc" $flags -I"$inc" -c "$work/errseq.c" -o "$work/o" 2>&1); then
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
	for src in errseq errseq_table; do
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
