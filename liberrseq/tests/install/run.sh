#!/usr/bin/env bash
# Install liberrseq from a build tree into a scratch prefix, move the prefix
# (the install must be relocatable) and check consumers against it
# (consumers.sh: pkg-config, find_package, C++, soname, exports).
#
# usage: run.sh BUILD_DIR [--plant broken-pc]
#   --plant broken-pc  corrupts the installed liberrseq.pc first: the test must
#                      then fail (shows it really depends on what is installed)
# Exits 77 (skipped) when consumers.sh does: liberrseq-table not built, its consumers
# not tried.
set -euo pipefail
build=$1 plant=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
pc=$(find "$work/prefix" -name liberrseq.pc)
[ -n "$pc" ] || { echo "FAIL: no liberrseq.pc installed"; exit 1; }
if [ "$plant" = --plant ] && [ "${3:-}" = broken-pc ]; then
	sed -i 's/-lerrseq//' "$pc"
fi
mv "$work/prefix" "$work/moved"
"$here/consumers.sh" "$work/moved"
