#!/usr/bin/env bash
# Build and run consumers against an installed liberrseq under PREFIX (a
# scratch prefix, or the root a package was unpacked into, plus its /usr):
# with pkg-config (shared and static), with find_package(liberrseq) (both
# imported targets), and the public header as C++; the same for
# liberrseq-table when it is there. Checks the soname, that only the API
# is exported, that pkg-config's flags point into PREFIX and that the
# programs load PREFIX's liberrseq.so.1.
#
# usage: consumers.sh PREFIX
# Exits 77 (skipped), after every other check passed, when liberrseq-table is not
# installed (a build without liburcu): its consumers were not tried.
set -euo pipefail
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

libdir=$(find "$prefix" -name liberrseq.pc -printf '%h\n' | sed 's|/pkgconfig$||')
[ -n "$libdir" ] || fail "no liberrseq.pc under $prefix"
export PKG_CONFIG_PATH=$libdir/pkgconfig

echo "== soname and exported symbols"
so=$(readlink -f "$libdir/liberrseq.so")
soname=$(objdump -p "$so" | awk '/SONAME/ { print $2 }')
[ "$soname" = liberrseq.so.1 ] || fail "soname '$soname'"
bad=$(nm -D --defined-only "$so" | awk '{ print $3 }' | sed 's/@.*//' |
	grep -Ev '^(errseq_|errseq64_|LIBERRSEQ_)' || true)
[ -z "$bad" ] || fail "exported beyond the API: $bad"
echo "$soname, $(nm -D --defined-only "$so" | grep -c ' T ') functions, all errseq_*"

echo "== pkg-config, shared"
flags=$(pkg-config --cflags --libs liberrseq)
for want in "-I$prefix/" "-L$libdir"; do
	[[ " $flags" == *" $want"* ]] || fail "pkg-config flags '$flags' lack $want"
done
cc -Wall -Werror -o "$work/pc_shared" "$here/consumer.c" $flags -Wl,-rpath,"$libdir"
loaded=$(ldd "$work/pc_shared" | awk '$1 == "liberrseq.so.1" { print $3 }')
[ "$(readlink -f "$loaded")" = "$so" ] || fail "pc_shared loads '$loaded', not $so"
"$work/pc_shared"
echo "== pkg-config, static"
cc -Wall -Werror -static -o "$work/pc_static" "$here/consumer.c" \
	$(pkg-config --cflags --libs --static liberrseq)
"$work/pc_static"

echo "== find_package(liberrseq)"
mkdir "$work/cm"
cp "$here/consumer.c" "$work/cm/"
cp "$here/CMakeLists.txt.in" "$work/cm/CMakeLists.txt"
cmake -S "$work/cm" -B "$work/cm/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cm/build" >/dev/null
"$work/cm/build/consumer_shared"
"$work/cm/build/consumer_static"
if ldd "$work/cm/build/consumer_static" | grep liberrseq; then
	fail "consumer_static links liberrseq.so"
fi

echo "== the header as C++"
cat > "$work/cxx.cc" <<'CXX'
#include <cstddef>
#include <errseq.h>
struct after_char { char c; errseq64_t w; };
static_assert(alignof(errseq64_t) == 8 && offsetof(after_char, w) == 8,
	      "errseq64_t is 8-byte aligned in C++ too");
int main() { errseq_t e = 0; return errseq_check(&e, 0); }
CXX
c++ -Wall -Werror -o "$work/cxx" "$work/cxx.cc" $(pkg-config --cflags --libs liberrseq) \
	-Wl,-rpath,"$libdir"
"$work/cxx"
if [ -f "$libdir/pkgconfig/liberrseq-table.pc" ]; then
	echo "== liberrseq-table: pkg-config (shared), find_package(liberrseq COMPONENTS table)"
	cc -Wall -Werror -o "$work/table_pc" "$here/table_consumer.c" \
		$(pkg-config --cflags --libs liberrseq-table) -Wl,-rpath,"$libdir"
	# liberrseq-table.so needs liberrseq.so.1: the RUNPATH of an executable does not
	# serve its libraries' own dependencies, and this prefix is not a system one
	LD_LIBRARY_PATH=$libdir "$work/table_pc"
	mkdir "$work/tcm"
	cp "$here/table_consumer.c" "$work/tcm/"
	cat >"$work/tcm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(liberrseq_table_consumer C)
find_package(liberrseq 1.0 REQUIRED COMPONENTS table)
add_executable(table_consumer table_consumer.c)
target_link_libraries(table_consumer liberrseq::errseq_table)
CM
	cmake -S "$work/tcm" -B "$work/tcm/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
	cmake --build "$work/tcm/build" >/dev/null
	LD_LIBRARY_PATH=$libdir "$work/tcm/build/table_consumer"
fi
echo "installed liberrseq works: pkg-config, CMake package, C and C++"
if [ ! -f "$libdir/pkgconfig/liberrseq-table.pc" ]; then
	echo "SKIP: liberrseq-table is not installed (built without liburcu: scripts/deps.sh table): its consumers not tried"
	exit 77
fi
