#!/usr/bin/env bash
# usage: main-args.sh
# scripts/main.sh's arguments, without running the main job: --help and -h print the
# usage on stdout and exit 0; an unknown argument is named, exit 2. Each run's exit
# status and message are checked; the first that differs prints "FAIL: ..." and the
# script exits 1. Should main.sh ever go past its arguments here, it stops at its first
# step: apt-get and dpkg-query are stand-ins that fail (and say so), and the caches are
# a temporary directory.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
M=$here/../main.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/bin"
for tool in apt-get dpkg-query; do
	printf '#!/bin/sh\necho "main-args.sh: main.sh went on to run %s" >&2\nexit 1\n' "$tool" >"$t/bin/$tool"
	chmod +x "$t/bin/$tool"
done
export PATH="$t/bin:$PATH" LIBERRSEQ_CACHE=$t/cache LIBERRSEQ_BUILD=$t/build
what=scripts/main.sh
target() { timeout 60 "$M" "$@"; }
. "$here/cmdcheck.sh"

for a in --help -h; do
	run 0 $a
	has out '^usage: scripts/main\.sh \[--quick\]'
	has out '^The main job'
	[ ! -s "$t/err" ] || fail "stderr is not empty"
done
run 2 --frob
has err "^error: unknown argument '--frob' \\(usage: scripts/main\\.sh \\[--quick\\]; --help says more\\)$"
run 2 --quick --frob
has err "^error: unknown argument '--frob' "
echo "main-args: PASS"
