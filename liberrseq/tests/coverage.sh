#!/bin/sh
# Build the library alone with gcov instrumentation in a scratch tree and
# print its line and branch coverage; fail under 100% of lines.
# usage: coverage.sh SOURCE_DIR BUILD_DIR
set -eu
cmake -S "$1" -B "$2" -DLIBERRSEQ_COVERAGE=ON -DLIBERRSEQ_LIBRARY_ONLY=ON \
	-DCMAKE_BUILD_TYPE=Debug -DLIBERRSEQ_COVERAGE_FAIL_UNDER=100 >/dev/null
cmake --build "$2" -j 2 -t coverage
