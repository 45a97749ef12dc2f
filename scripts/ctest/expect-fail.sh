#!/usr/bin/env bash
# A test that must fail, failing for the right reason: COMMAND must exit STATUS (not 0) and
# print what matches REGEX, with no sanitizer or lockdep report unless --reports-expected
# (expect-output.sh has the rules). Replaces WILL_FAIL, which passes on any failure: a crash,
# a usage error, a binary that never started.
#
# usage: expect-fail.sh [--reports-expected] STATUS REGEX -- COMMAND [ARG...]
set -u
me=${0##*/}
opts=()
while [ "${1:-}" = --reports-expected ]; do opts+=("$1"); shift; done
if [ $# -lt 4 ] || ! [[ $1 =~ ^[0-9]+$ ]] || [ "$1" -eq 0 ] || [ "$1" -gt 255 ]; then
	echo "$me: usage: $me [--reports-expected] STATUS REGEX -- COMMAND [ARG...] (STATUS 1..255)" >&2
	exit 2
fi
exec "$(dirname "$0")/expect-output.sh" "${opts[@]}" --status "$@"
