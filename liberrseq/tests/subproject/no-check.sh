#!/usr/bin/env bash
# Without Check (pkg-config's search path emptied): the library alone
# (BUILD_TESTING=OFF) configures and builds; with the tests on, the
# configure still succeeds, warns which package to install and how to turn
# the tests off, and the Check tests (unit, races) fail saying the same.
#
# usage: no-check.sh SOURCE_DIR     (the top level, or liberrseq/)
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$work/empty"
export PKG_CONFIG_LIBDIR=$work/empty PKG_CONFIG_PATH=

echo "== -DLIBERRSEQ_LIBRARY_ONLY=ON -DBUILD_TESTING=OFF: configure and build"
cmake -S "$src" -B "$work/lib" -DLIBERRSEQ_LIBRARY_ONLY=ON -DBUILD_TESTING=OFF \
	>"$work/lib.log" 2>&1 || { cat "$work/lib.log"; fail "configure"; }
cmake --build "$work/lib" -j 2 >>"$work/lib.log" 2>&1 || { tail -30 "$work/lib.log"; fail "build"; }
for f in liberrseq.so.1 liberrseq.a; do
	[ -n "$(find "$work/lib" -name "$f")" ] || fail "no $f built"
done
(cd "$work/lib" && ctest -N) | grep -x 'Total Tests: 0' >/dev/null || fail "tests registered with BUILD_TESTING=OFF"
echo "library built, no tests"

echo "== tests on: the configure warns and the Check tests fail saying why"
cmake -S "$src" -B "$work/tests" -DLIBERRSEQ_LIBRARY_ONLY=ON >"$work/tests.log" 2>&1 ||
	{ cat "$work/tests.log"; fail "configure with tests on, without Check"; }
warning=$(tr -s ' \n' '  ' <"$work/tests.log")
for want in 'Check, the C unit test framework' 'apt-get install check' \
	'-DLIBERRSEQ_BUILD_TESTS=OFF' '-DBUILD_TESTING=OFF'; do
	grep -qF -- "$want" <<<"$warning" || { cat "$work/tests.log"; fail "no '$want' in the warning"; }
done
echo "configure warned: $(grep -o 'liberrseq: Check[^.]*' <<<"$warning")"
out=$(cd "$work/tests" && ctest -R '^(unit|races)$' --output-on-failure 2>&1) &&
	{ echo "$out"; fail "unit and races passed without Check"; }
[ "$(grep -c 'FAIL: liberrseq: Check, the C unit test framework' <<<"$out")" -eq 2 ] ||
	{ echo "$out"; fail "unit and races did not both fail naming Check"; }
echo "unit and races fail, naming Check"
