#!/usr/bin/env bash
# Build the guest initramfs: Debian's busybox-static, dmsetup with its shared libraries and the
# dynamic loader, vm/guest/init as /init, the vm/guest/*.c programs (static, each linked with the
# fault injector vm/guest/lib/fault.c) in /usr/bin, and any extra files other folders pass with
# --add.
#
# usage: vm/mkinitramfs.sh -o OUT.cpio.gz [--add SRC:DST]...
#   --add SRC:DST   copy SRC (file or directory, recursively) to DST inside the guest; a DST
#                   ending in / is a directory to put SRC in. Repeatable. E.g.
#                     --add build/difftest-guest:/usr/bin/difftest-guest
#                     --add build/errseq_test.ko:/lib/modules/
#   --list          print the archive's file list after building it
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=
adds=()
list=0
while [ $# -gt 0 ]; do
	case "$1" in
	-o) out=${2:?-o needs a file}; shift 2 ;;
	--add) adds+=("${2:?--add needs SRC:DST}"); shift 2 ;;
	--add=*) adds+=("${1#--add=}"); shift ;;
	--list) list=1; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "mkinitramfs.sh: unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$out" ] || die "usage: $0 -o OUT.cpio.gz [--add SRC:DST]..."
# (no kernel is built here: not Debian's kernel source packages)
"$LIBERRSEQ_ROOT/scripts/deps.sh" --skip 'linux-source-*' vm

# Guest programs: each vm/guest/*.c, static, linked with the guest programs' fault injector
# (vm/guest/lib/), cached under $VM_CACHE/guest as NAME-HASH, HASH of its source, the
# injector's and the compile options (checkouts sharing the cache each get their own).
flib=$VM_DIR/guest/lib
cflags=(-static -O2 -g -Wall -Wextra -Werror)
mkdir -p "$VM_CACHE/guest"
progs=()
for c in "$VM_DIR"/guest/*.c; do
	name=$(basename "$c" .c)
	h=$( { echo "${cflags[*]}"; cat "$c" "$flib"/*.c "$flib"/*.h; } | sha256sum | cut -c1-16)
	bin=$VM_CACHE/guest/$name-$h
	if [ ! -x "$bin" ]; then
		log "compiling guest program $name (static)"
		tmp=$(mktemp "$VM_CACHE/guest/.$name.XXXXXX")
		gcc "${cflags[@]}" -I"$flib" -o "$tmp" "$c" "$flib"/*.c || { rm -f "$tmp"; die "cannot compile $c"; }
		mv -f "$tmp" "$bin"
	fi
	touch "$bin" # last used: programs unused for a day are deleted below
	progs+=("$bin")
done
find "$VM_CACHE/guest" -maxdepth 1 -type f -name '*-*' -mtime +1 -delete

# The base archive (busybox, dmsetup, /init, guest programs) is cached under a hash of its
# inputs; the --add files go into a second archive appended to it (the kernel unpacks
# concatenated archives in order, later files replacing earlier ones).
bb=/bin/busybox
file "$bb" 2>/dev/null | grep -q 'statically linked' || die "$bb is not the static busybox (busybox-static)"
mapfile -t dm_files < <(echo /sbin/dmsetup; ldd /sbin/dmsetup | grep -o '/[^ ]*')
key=$( {
	sha256sum "$0" "$VM_DIR/guest/init" "$bb" "${dm_files[@]}" "${progs[@]}"
} | sha256sum | cut -c1-16)
base=$VM_CACHE/initramfs/base-$key.cpio.gz
mkdir -p "$VM_CACHE/initramfs"

work=$(mktemp -d "${TMPDIR:-/tmp}/liberrseq-initramfs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# copy_in ROOT SRC DST: DST absolute in the guest, parent directories created.
copy_in() {
	local root=$1 src=$2 dst=$3
	[ -e "$src" ] || die "--add: $src does not exist"
	case "$dst" in
	/*) ;;
	*) die "--add: destination '$dst' must be an absolute guest path" ;;
	esac
	case "$dst" in */) dst=$dst$(basename "$src") ;; esac
	mkdir -p "$root$(dirname "$dst")"
	if [ -d "$src" ]; then
		mkdir -p "$root$dst"
		cp -RL "$src/." "$root$dst/"
	else
		cp -L "$src" "$root$dst"
	fi
}
# mkcpio ROOT OUT: gzip'd newc archive of ROOT, owned by root, reproducible.
mkcpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet) |
		gzip -n -1 >"$2"
}

if [ ! -f "$base" ]; then
	root=$work/base
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc/liberrseq,proc,sys,dev,tmp,run,mnt,root,lib/modules}
	copy_in "$root" "$bb" /bin/busybox
	# busybox applets: one symlink each (a cpio entry, no process per link).
	(cd "$root" && for a in $("$bb" --list-full); do [ -e "$a" ] || ln -s /bin/busybox "$a"; done)
	# dmsetup, its libraries and the loader (vm-guest-env-* checks it runs in the guest)
	for f in "${dm_files[@]}"; do copy_in "$root" "$f" "$f"; done
	copy_in "$root" "$VM_DIR/guest/init" /init
	chmod 0755 "$root/init"
	for b in "${progs[@]}"; do
		name=$(basename "$b")
		copy_in "$root" "$b" "/usr/bin/${name%-*}"
	done
	mkcpio "$root" "$work/base.cpio.gz"
	mv -f "$work/base.cpio.gz" "$base"
	log "built base initramfs $base"
	find "$VM_CACHE/initramfs" -name "base-*.cpio.gz" ! -name "$(basename "$base")" -mtime +1 -delete
fi

mkdir -p "$(dirname "$out")"
tmp_out=$(mktemp "$(dirname "$out")/.$(basename "$out").XXXXXX")
cp "$base" "$tmp_out"
if [ ${#adds[@]} -gt 0 ]; then
	mkdir -p "$work/extra"
	for a in "${adds[@]}"; do
		[[ "$a" == *:* ]] || die "--add $a: want SRC:DST"
		copy_in "$work/extra" "${a%%:*}" "${a#*:}"
	done
	mkcpio "$work/extra" "$work/extra.cpio.gz"
	cat "$work/extra.cpio.gz" >>"$tmp_out"
fi
mv -f "$tmp_out" "$out"
if [ $list -eq 1 ]; then
	{
		zcat "$base" | cpio -t --quiet
		[ ! -d "$work/extra" ] || (cd "$work/extra" && find . -mindepth 1 | sed 's|^\./||')
	} | LC_ALL=C sort -u
fi
log "initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
