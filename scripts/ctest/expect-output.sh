#!/usr/bin/env bash
# A test's pass rule in one place: run COMMAND and pass only if it exits STATUS (default 0),
# its output (stdout and stderr together) matches REGEX, and the output holds no sanitizer,
# lockdep or kernel BUG report. ctest's PASS_REGULAR_EXPRESSION ignores the exit status (a
# crash after the expected line passes) and WILL_FAIL passes on any failure: use this instead.
#
# usage: expect-output.sh [--status N] [--reports-expected] REGEX -- COMMAND [ARG...]
#   REGEX               POSIX extended, matched against the whole output: '.' matches a
#                       newline too, as in ctest's PASS_REGULAR_EXPRESSION
#   --status N          the exit status COMMAND must have (expect-fail.sh N: the same)
#   --reports-expected  the expected output is itself a sanitizer report (a planted race):
#                       reports are not held against the test
# COMMAND's output is passed through as it comes; the last line says why the test failed.
# Exit: 0 pass, 1 fail, 2 usage error; 77 when COMMAND exits 77 (it skipped: the test sets
# SKIP_RETURN_CODE 77) unless 77 is the expected status.
set -u
me=${0##*/}
usage() { echo "$me: usage: $me [--status N] [--reports-expected] REGEX -- COMMAND [ARG...]" >&2; exit 2; }
want=0 reports=1
while [ $# -gt 0 ]; do
	case $1 in
	--status)
		if [ $# -lt 2 ] || ! [[ $2 =~ ^[0-9]+$ ]] || [ "$2" -gt 255 ]; then usage; fi
		want=$2
		shift 2
		;;
	--reports-expected) reports=0; shift ;;
	*) break ;;
	esac
done
if [ $# -lt 3 ] || [ "$2" != -- ]; then usage; fi
regex=$1
shift 2

# Sanitizer runtimes (ASan, LSan, TSan, UBSan), lockdep, and the kernel's BUG/WARNING splats.
report='AddressSanitizer:|LeakSanitizer:|ThreadSanitizer:|FATAL: ThreadSanitizer|UndefinedBehaviorSanitizer:|runtime error: |possible circular locking dependency|possible recursive locking|inconsistent lock state|suspicious RCU usage|BUG: |WARNING: CPU: [0-9]+ PID: |Kernel panic'

out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
"$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
# The whole output as one string, trailing newlines and all (NUL bytes dropped).
text=$(tr -d '\000' <"$out"; echo .)
text=${text%.}

fail() { echo "$me: FAIL: $*"; exit 1; }
if [ "$rc" -eq 77 ] && [ "$want" -ne 77 ]; then
	echo "$me: the command skipped (exit 77)"
	exit "$rc"
fi
[ "$rc" -eq "$want" ] || fail "exit status $rc, expected $want (command: $*)"
[[ $text =~ $regex ]]
case $? in
0) ;;
1) fail "the output does not match /$regex/" ;;
*) echo "$me: bad regex /$regex/" >&2; exit 2 ;;
esac
if [ $reports -eq 1 ] && [[ $text =~ $report ]]; then
	fail "a sanitizer, lockdep or kernel report in the output: '${BASH_REMATCH[0]}'"
fi
echo "$me: ok: exit status $rc, the output matches"
