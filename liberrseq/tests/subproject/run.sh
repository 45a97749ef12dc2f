#!/usr/bin/env bash
# liberrseq as a subproject: a tiny consumer project (a "storage daemon")
# that includes CTest for its own tests and adds liberrseq/ with
# add_subdirectory(). Configured with pkg-config's search path emptied (so
# no Check, no liburcu), it must configure, build the library and the
# consumer and none of liberrseq's tests or test programs, and the consumer
# must run. Then LIBERRSEQ_BUILD_TESTS=ON must bring the tests back
# (configure only).
#
# usage: run.sh LIBERRSEQ_SOURCE_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$work/storaged" "$work/empty"
cp "$src/tests/install/consumer.c" "$work/storaged/main.c"
cat >"$work/storaged/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(storaged C)
include(CTest)
add_subdirectory($src liberrseq)
add_executable(storaged main.c)
target_link_libraries(storaged liberrseq::errseq)
add_executable(storaged_static main.c)
target_link_libraries(storaged_static liberrseq::errseq_static)
add_test(NAME storaged COMMAND storaged)
CM

echo "== configure and build, Check hidden from pkg-config"
b=$work/build
PKG_CONFIG_LIBDIR=$work/empty PKG_CONFIG_PATH= \
	cmake -S "$work/storaged" -B "$b" >"$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log"; fail "configure"; }
grep -q '^LIBERRSEQ_BUILD_TESTS:BOOL=OFF$' "$b/CMakeCache.txt" ||
	fail "LIBERRSEQ_BUILD_TESTS is not OFF in a subproject"
cmake --build "$b" -j 2 >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "build"; }
"$b/storaged"
"$b/storaged_static"
ls "$b/liberrseq/liberrseq.so.$(sed -n 's/^#define LIBERRSEQ_VERSION_\(MAJOR\|MINOR\|PATCH\) *//p' \
	"$src/include/errseq.h" | paste -sd.)" >/dev/null || fail "liberrseq.so.VERSION missing"

echo "== nothing of liberrseq's tests"
tests=$(cd "$b" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p')
[ "$tests" = storaged ] || fail "ctest lists more than the consumer's test: $tests"
progs=$(find "$b/liberrseq" -type f -perm -u+x ! -name '*.so*' ! -path '*/CMakeFiles/*')
[ -z "$progs" ] || fail "programs built in liberrseq/: $progs"
grep -q 'Check, the C unit test framework' "$work/configure.log" &&
	{ cat "$work/configure.log"; fail "configure asks for Check"; }
echo "only the library and the consumer were built; ctest lists: $tests"

echo "== LIBERRSEQ_BUILD_TESTS=ON brings the tests back (configure only)"
cmake -S "$work/storaged" -B "$work/with-tests" -DLIBERRSEQ_BUILD_TESTS=ON \
	>"$work/configure2.log" 2>&1 || { cat "$work/configure2.log"; fail "configure with tests"; }
n=$(cd "$work/with-tests/liberrseq" && ctest -N | grep -cE 'Test +#[0-9]+: (unit|kernel-diff|abi)$' || true)
[ "$n" -eq 3 ] || fail "LIBERRSEQ_BUILD_TESTS=ON: unit, kernel-diff and abi not all registered ($n)"
echo "liberrseq as a subproject: library only by default, tests when asked"
