#!/usr/bin/env bash
# Make a disk image file with a fresh file system, for vm/run.sh --disk.
# usage: vm/mkdisk.sh FSTYPE SIZE OUT      FSTYPE: ext2 | ext4 | raw;  SIZE as for truncate (64M)
# Lazy inode-table and journal initialisation are off, so the guest kernel does no
# background writes of its own (they would muddy I/O-error tests).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: $0 ext2|ext4|raw SIZE OUT"
fs=$1 size=$2 out=$3
# (no kernel is built here: not Debian's kernel source packages)
"$LIBERRSEQ_ROOT/scripts/deps.sh" --skip 'linux-source-*' vm
mkdir -p "$(dirname "$out")"
rm -f "$out"
truncate -s "$size" "$out"
case "$fs" in
raw) ;;
ext2) mkfs.ext2 -q -F -E lazy_itable_init=0 "$out" ;;
ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$out" ;;
*) die "unknown file system '$fs' (want ext2, ext4 or raw)" ;;
esac
