# cmdcheck.sh: sourced by the host tests that run a command and check its exit status and
# what it printed (difftest/tests/{campaign-args,cli,kconfig}.sh, scripts/tests/main-args.sh).
# The test sets t (a temporary directory), target (a function that runs the command under
# test with its arguments), what (its name in messages) and optionally case_ (named in the
# FAIL line).
#   run STATUS ARG...   target ARG..., stdout in $t/out, stderr in $t/err; it must exit STATUS
#   has out|err ERE     a line of that stream matches
#   lacks out|err ERE   no line of it matches
#   empty out|err       it is empty
#   fail MESSAGE        print "FAIL: ..." with the last command's output, exit 1
last=

fail() {
	echo "FAIL: ${case_:+$case_: }$*"
	echo "--- stdout of: $last"
	cat "$t/out" 2>/dev/null
	echo "--- stderr"
	cat "$t/err" 2>/dev/null
	exit 1
}
run() {
	local want=$1 rc=0
	shift
	last="${what:+$what }$*"
	target "$@" >"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "$last: exit status $rc, want $want"
}
has() { grep -qE -- "$2" "$t/$1" || fail "$last: no line of std$1 matches /$2/"; }
lacks() { ! grep -qE -- "$2" "$t/$1" || fail "$last: a line of std$1 matches /$2/"; }
empty() { [ ! -s "$t/$1" ] || fail "$last: std$1 is not empty"; }
