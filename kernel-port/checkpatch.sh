#!/usr/bin/env bash
# Apply kernel-port/LINE/patches/series (LINE: LIBERRSEQ_KERNEL, default 6.1) in order to
# that line's pinned pristine tree (patch -p1 --fuzz=0, as vm/kernel-build.sh does) and run
# that tree's scripts/checkpatch.pl --strict on every patch. Fails if a patch does not apply
# or checkpatch reports any ERROR, WARNING or CHECK. MISSING_SIGN_OFF is the one type
# ignored: the series carries no Signed-off-by lines on purpose (nobody has signed it off;
# see README.md).
# usage: kernel-port/checkpatch.sh [--mutate]
#   --mutate  check a copy whose last patch gains a line with trailing whitespace: must fail
# The pristine tree is vm/kernel-build.sh's stock source if present, else extracted once to
# $LIBERRSEQ_CACHE/kport/LINE/pristine-tree.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$LIBERRSEQ_ROOT/vm/lib.sh"

stamp="$(stat -c '%s %Y' "$LINUX_TARBALL")"
pristine=$(vm_src_dir stock)
if [ ! -f "$pristine/scripts/checkpatch.pl" ]; then
	pristine=$KP_CACHE/pristine-tree
	exec 9>"$KP_CACHE/.pristine-tree.lock"
	flock 9
	if [ ! -f "$pristine/Makefile" ] || [ "$(cat "$pristine.stamp" 2>/dev/null)" != "$stamp" ]; then
		log "extracting $LINUX_TARBALL to $pristine"
		rm -rf "$pristine" "$pristine.tmp"
		mkdir -p "$pristine.tmp"
		tar -xJf "$LINUX_TARBALL" -C "$pristine.tmp" --strip-components=1
		mv "$pristine.tmp" "$pristine"
		echo "$stamp" >"$pristine.stamp"
	fi
	exec 9>&-
fi
stage=$(mktemp -d "$KP_CACHE/checkpatch-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
# --mutate: check a copy of the series whose last patch gains a line with trailing
# whitespace: the check must then fail (exit 1), naming that patch
if [ "${1:-}" = --mutate ]; then
	mkdir "$stage.patches"
	trap 'rm -rf "$stage" "$stage.patches"' EXIT
	cp "$KP_PATCHES"/* "$stage.patches/"
	KP_PATCHES=$stage.patches
	last=$(kp_series_list | tail -n 1)
	python3 - "$KP_PATCHES/$last" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
m = re.search(r"^\+[^+\n][^\n]*\n", s, re.M)
s = s[:m.end()] + "+int kp_mutant;  \n" + s[m.end():]
# the hunk gained a line: its new count too
h = s.rfind("\n@@ ", 0, m.start()) + 1
s = s[:h] + re.sub(r"^(@@ -\d+(?:,\d+)? \+\d+,)(\d+)", lambda x: x.group(1) + str(int(x.group(2)) + 1), s[h:], count=1) if h else s
open(p, "w").write(s)
PY
fi
cp -al "$pristine/." "$stage/"
fail=0
n=0
for p in $(kp_series_list); do
	n=$((n + 1))
	if ! (cd "$stage" && patch -p1 -N -s --batch --fuzz=0 --no-backup-if-mismatch -r - \
		<"$KP_PATCHES/$p"); then
		echo "FAIL: $p does not apply"
		exit 1
	fi
done
for p in $(kp_series_list); do
	out=$(cd "$stage" && perl scripts/checkpatch.pl --strict --ignore MISSING_SIGN_OFF \
		--showfile --color=never "$KP_PATCHES/$p" 2>&1) || true
	# --showfile puts FILE:LINE: before each message; the verdict is the total line
	if ! echo "$out" | grep -qE '^total: 0 errors, 0 warnings, 0 checks,'; then
		echo "FAIL: $p"
		echo "$out"
		fail=1
	else
		echo "ok: $p ($(echo "$out" | grep -E '^total:' || echo 'no output'))"
	fi
done
[ $fail -eq 0 ] || exit 1
echo "all $n patches of the $KLINE series apply with --fuzz=0 and pass checkpatch --strict (ignoring MISSING_SIGN_OFF)"
