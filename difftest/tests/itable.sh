#!/usr/bin/env bash
# failread's inode blocks (dtguest.c itable_sectors()) against debugfs's "imap" on fresh
# ext2 and ext4 images of several layouts (4 KiB and 1 KiB blocks, 128- and 256-byte
# inodes, 32- and 64-byte group descriptors), for inodes in the first, a middle and the
# last group, at a block's start and end.
# usage: itable.sh DTGUEST
set -euo pipefail
dtguest=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
checked=0
for mk in "mkfs.ext2 -q -F -b 4096" "mkfs.ext4 -q -F -b 4096" "mkfs.ext2 -q -F -b 1024 -I 128" \
	"mkfs.ext4 -q -F -b 1024 -O ^64bit" "mkfs.ext4 -q -F -b 4096 -I 128 -O 64bit"; do
	rm -f "$t/img"
	truncate -s 300M "$t/img"
	$mk "$t/img" >/dev/null 2>&1
	ipg=$(dumpe2fs -h "$t/img" 2>/dev/null | awk -F: '/^Inodes per group/ { print $2 + 0 }')
	total=$(dumpe2fs -h "$t/img" 2>/dev/null | awk -F: '/^Inode count/ { print $2 + 0 }')
	bsize=$(dumpe2fs -h "$t/img" 2>/dev/null | awk -F: '/^Block size/ { print $2 + 0 }')
	for ino in 1 2 11 12 13 16 17 $((ipg - 1)) "$ipg" $((ipg + 1)) $((ipg * 2 + 17)) \
		$((total - 1)) "$total"; do
		want=$(debugfs -R "imap <$ino>" "$t/img" 2>/dev/null | awk '/located at block/ { print $4 + 0 }')
		[ -n "$want" ] || { echo "FAIL: $mk: debugfs has no block for inode $ino"; exit 1; }
		got=$("$dtguest" --itable "$t/img" "$ino")
		[ "$got" = "$ino $((want * bsize / 512)) $((bsize / 512))" ] || {
			echo "FAIL: $mk: inode $ino: dtguest says '$got'," \
				"debugfs block $want of $bsize bytes"
			exit 1
		}
		checked=$((checked + 1))
	done
done
# not an ext2/ext4 image: refused
truncate -s 1M "$t/zero"
if "$dtguest" --itable "$t/zero" 12 2>"$t/err"; then
	echo "FAIL: an image without a superblock was read"
	exit 1
fi
grep -q 'inode 12 of .*: Operation not supported' "$t/err" || { echo "FAIL: $(cat "$t/err")"; exit 1; }
echo "itable: $checked inodes of 5 layouts where debugfs has them"
