#!/usr/bin/env bash
# Build the binary packages (cmake/Package.cmake) of a fresh library-only
# build configured for /usr, check what each holds, unpack them into a
# scratch root (dpkg-deb -x, or rpm2cpio | cpio: nothing is installed on
# this system) and build and run consumers against ROOT/usr (consumers.sh).
#
# usage: package.sh SOURCE_DIR deb|rpm    (SOURCE_DIR: the top level or liberrseq/)
# Exits 77 (skipped) when the packaging tools are missing.
set -euo pipefail
src=$(cd "$1" && pwd) kind=$2
here=$(cd "$(dirname "$0")" && pwd)
man3=$here/../../man/man3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

case $kind in
deb) gen=DEB tools="dpkg-deb dpkg-shlibdeps" ;;
rpm) gen=RPM tools="rpmbuild rpm rpm2cpio cpio" ;;
*) fail "unknown package kind '$kind'" ;;
esac
for t in $tools; do
	command -v "$t" >/dev/null ||
		{ echo "SKIP: $t is missing (scripts/deps.sh base installs it)"; exit 77; }
done

echo "== a library-only build for /usr, and cpack -G $gen"
cmake -S "$src" -B "$work/build" -DLIBERRSEQ_LIBRARY_ONLY=ON -DBUILD_TESTING=OFF \
	-DCMAKE_INSTALL_PREFIX=/usr >"$work/log" 2>&1 || { cat "$work/log"; fail "configure"; }
cmake --build "$work/build" -j 2 >>"$work/log" 2>&1 || { tail -30 "$work/log"; fail "build"; }
(cd "$work/build" && cpack -G "$gen") >>"$work/log" 2>&1 || { tail -30 "$work/log"; fail "cpack"; }
shopt -s nullglob
pkgs=("$work"/build/*."$kind")
[ ${#pkgs[@]} -eq 2 ] || fail "expected 2 packages, got: ${pkgs[*]##*/}"

# list PACKAGE: its file names, ./-less and sorted
list() {
	if [ "$kind" = deb ]; then
		dpkg-deb --fsys-tarfile "$1" | tar -t | sed 's|^\./|/|'
	else
		rpm -qlp "$1"
	fi
}
runtime=$(printf '%s\n' "${pkgs[@]}" | grep -Ev -- '-(dev|devel)[-_]')
dev=$(printf '%s\n' "${pkgs[@]}" | grep -E -- '-(dev|devel)[-_]')
echo "packages: ${runtime##*/} ${dev##*/}"

echo "== what each holds"
# has PACKAGE REGEX WHAT
has() { list "$1" | grep -E "$2" >/dev/null || fail "${1##*/} has no $3 ($2)"; }
lib='/usr/lib/[^/]+'
has "$runtime" "^$lib/liberrseq\.so\.1$" "soname link"
has "$runtime" "^$lib/liberrseq\.so\.1\.[0-9]+\.[0-9]+$" "shared library"
has "$runtime" "^/usr/share/doc/liberrseq/COPYING$" "licence"
has "$dev" "^/usr/include/errseq\.h$" "header"
has "$dev" "^$lib/liberrseq\.so$" ".so link"
has "$dev" "^$lib/liberrseq\.a$" "static library"
has "$dev" "^$lib/pkgconfig/liberrseq\.pc$" "pkg-config file"
has "$dev" "^$lib/cmake/liberrseq/liberrseqConfig\.cmake$" "CMake package"
has "$dev" "^$lib/cmake/liberrseq/liberrseqConfigVersion\.cmake$" "CMake package version"
has "$dev" "^$lib/cmake/liberrseq/liberrseqTargets\.cmake$" "CMake targets"
pages=$(cd "$man3" && ls | sed 's|^|/usr/share/man/man3/|')
got=$(list "$dev" | grep '^/usr/share/man/man3/.' | sort)
[ "$pages" = "$got" ] || { diff <(echo "$pages") <(echo "$got"); fail "man pages differ from man/man3"; }
if list "$runtime" | grep -E '\.(h|a|pc|cmake|3)$'; then fail "development files in ${runtime##*/}"; fi
if list "$dev" | grep -E '\.so\.[0-9]'; then fail "the shared library in ${dev##*/}"; fi
echo "runtime: shared libraries and licence; dev: header, .so, .a, .pc, CMake package, $(wc -l <<<"$pages") man pages"

if [ "$kind" = deb ]; then
	echo "== control fields"
	name=$(dpkg-deb -f "$runtime" Package)
	dpkg-deb -f "$dev" Depends | grep -F "$name (= $(dpkg-deb -f "$runtime" Version))" >/dev/null ||
		fail "${dev##*/} does not depend on $name of its version"
	dpkg-deb -f "$runtime" Depends | grep libc6 >/dev/null || fail "${runtime##*/}: no Depends on libc6"
	for p in "$runtime" "$dev"; do
		echo "$(dpkg-deb -f "$p" Package): Depends: $(dpkg-deb -f "$p" Depends)"
	done
fi

echo "== unpacked into a scratch root; consumers against it"
root=$work/root
mkdir "$root"
for p in "${pkgs[@]}"; do
	if [ "$kind" = deb ]; then
		dpkg-deb -x "$p" "$root"
	else
		(cd "$root" && rpm2cpio "$p" | cpio -idm --quiet)
	fi
done
"$here/consumers.sh" "$root/usr"
echo "the $kind packages hold a working liberrseq"
