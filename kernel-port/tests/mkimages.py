#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build the guest disk for kernel-port/tests/guest-tests.sh.

usage: mkimages.py OUTDIR
       mkimages.py --rec IMG N

Writes OUTDIR/disk.img (ext2, ext4, ext4 without a journal and ext4 with fast
commits, made with the
host's mkfs -d so the files already have their blocks, then an empty vfat and
an empty exfat; 32 MiB each, back to back) and OUTDIR/layout.env: for each
filesystem its type and mount options and device-mapper tables over the disk
(DEV stands for the guest's disk): GOOD (linear); for the ext* images
ERR_DATA (error over the data of f1, f2 and f3), ERR_MD (error over the inode
table block holding g's inode), ERR_RACE (error over the data of r), ERR_IND
(ext2 only: writes fail on the indirect block of ind, which has data in
blocks 0-11 and 13), ERR_INO1 (error over the inode table block holding f1's
inode: reads fail too), ERR_DIRW (writes fail on the blocks of directory dir,
which holds files x and y), ERR_FREE (writes fail on the image's last block, which is
free) with FREE_OFF (its byte offset in the image), ERR_MDW (writes fail on
g's inode table block), ERR_WRITES (every write fails). "Writes fail" is
dm-flakey with error_writes: reads pass, so a block the kernel must read first
(an indirect block before a write into a hole, a raw block read then written
back, an inode table block after a failed write left its buffer not uptodate)
is still readable; for vfat and exfat ERR_MD (writes to the metadata
area fail: vfat's FATs, exfat's boot region, FAT, bitmap, upcase table and
root directory). Block numbers come from debugfs and the boot sectors.
Then "many": an empty 320 MiB ext4 with 1 KiB blocks and room for 210000
inodes (GOOD only; kptest many-setup makes its error table from FIEMAP).
Last, "ext2k": ext2 with 1 KiB blocks whose directory big fills its 12 direct
blocks exactly (47 names of 246 characters), so that the next such name needs
logical block 12 and a new indirect block; ERR_IND: writes fail on the block
ext2 will allocate for it (the first free block after big's block 11, which
ext2_find_near() gives as the goal of a directory's new branch).

--rec IMG N writes the disk of the recmem case instead (a disk of its own): ext4
with 1 KiB blocks whose directory sparse holds N empty files 000000 ... whose
inode numbers are 64 apart, each followed by a directory of 62 empty files
(mkfs -d gives inode numbers one after the other, in name order), and room for
N more files (the dense run, made in the guest).
"""
import os
import re
import struct
import subprocess
import sys

SECT_PER_IMG = 32 * 1024 * 1024 // 512
BLK = 4096
SPB = BLK // 512

FILESYSTEMS = [
    # name, mount type, mount options, mkfs command
    ("ext2", "ext2", "", ["mkfs.ext2", "-q", "-F", "-b", "4096"]),
    ("ext4", "ext4", "", ["mkfs.ext4", "-q", "-F", "-b", "4096",
                          "-E", "lazy_itable_init=0,lazy_journal_init=0"]),
    ("ext4nj", "ext4", "", ["mkfs.ext4", "-q", "-F", "-b", "4096", "-O", "^has_journal",
                            "-E", "lazy_itable_init=0"]),
    # fast commits: fsync waits on the data through jbd2_wait_inode_data()
    ("ext4fc", "ext4", "", ["mkfs.ext4", "-q", "-F", "-b", "4096", "-O", "fast_commit",
                            "-E", "lazy_itable_init=0,lazy_journal_init=0"]),
]

# Two runs of 100000 files of one 1 KiB block fit (the eviction measurement: 1e5
# files, plain and in a memory cgroup, one boot), and the bound run
MANY_SECT = 320 * 1024 * 1024 // 512
MANY_MKFS = ["mkfs.ext4", "-q", "-F", "-b", "1024", "-N", "210000",
             "-E", "lazy_itable_init=0,lazy_journal_init=0"]

# Empty filesystems, files are made in the guest: name (= mount type), mkfs, metadata area.
EMPTY_FILESYSTEMS = [
    ("vfat", ["mkfs.vfat", "-F", "16"], None),
    ("exfat", ["mkfs.exfat"], None),
]


def debugfs(img, req):
    return subprocess.run(["debugfs", "-R", req, img], check=True, capture_output=True,
                          text=True).stdout


def file_blocks(img, path):
    return [int(b) for b in debugfs(img, "blocks " + path).split()]


def inode_block(img, path):
    m = re.search(r"located at block (\d+)", debugfs(img, "imap " + path))
    return int(m.group(1))


def ranges(blocks):
    """Sorted 4 KiB block numbers -> [(start_sector, len_sectors)] relative to the image."""
    out = []
    for b in sorted(set(blocks)):
        if out and out[-1][0] + out[-1][1] == b * SPB:
            out[-1] = (out[-1][0], out[-1][1] + SPB)
        else:
            out.append((b * SPB, SPB))
    return out


def indirect_block(img, path):
    """The indirect block of path, None if it has none (extents)."""
    m = re.search(r"\(IND\):(\d+)", debugfs(img, "stat " + path))
    return int(m.group(1)) if m else None


def table(base, errs, target="error"):
    """A dm table over one image: linear, with target over the ranges errs.

    target "error" fails reads and writes; "flakey" fails writes only."""
    segs, pos = [], 0
    for start, length in errs:
        if start > pos:
            segs.append(f"{pos} {start - pos} linear DEV {base + pos}")
        if target == "error":
            segs.append(f"{start} {length} error")
        else:
            segs.append(f"{start} {length} flakey DEV {base + start} 0 1 1 error_writes")
        pos = start + length
    if pos < SECT_PER_IMG:
        segs.append(f"{pos} {SECT_PER_IMG - pos} linear DEV {base + pos}")
    return ";".join(segs)


def vfat_md_sectors(img):
    """The FATs of a FAT12/16 image: [(start_sector, len_sectors)]."""
    with open(img, "rb") as f:
        bs = f.read(512)
    bps, _spc, rsvd, nfats, _rootent, _tot16, _media, fatsz = struct.unpack_from("<HBHBHHBH", bs, 11)
    assert bps == 512 and fatsz > 0, "expected a FAT12/16 image with 512-byte sectors"
    return [(rsvd, nfats * fatsz)]


def exfat_md_sectors(img):
    """exFAT's boot region, FAT and the clusters mkfs used (bitmap, upcase, root)."""
    with open(img, "rb") as f:
        bs = f.read(512)
        _fat_off, _fat_len, heap, _count, root = struct.unpack_from("<IIIII", bs, 80)
        bps, spc = 1 << bs[108], 1 << bs[109]
        assert bps == 512

        def cluster(c):
            f.seek((heap + (c - 2) * spc) * bps)
            return f.read(spc * bps)
        rootdir = cluster(root)
        ent = next(rootdir[i:i + 32] for i in range(0, len(rootdir), 32) if rootdir[i] == 0x81)
        first, length = struct.unpack_from("<IQ", ent, 20)
        bitmap = cluster(first)[:length]
    used = [i + 2 for i in range(len(bitmap) * 8) if bitmap[i // 8] >> (i % 8) & 1]
    return [(0, heap + (max(used) - 1) * spc)]


# 1 KiB blocks: "." and ".." and 3 entries of 256 bytes fill block 0, 4 fill each other
BIG_NAMES = 3 + 11 * 4


def big_name(i):
    return "%0246d" % i


def file_blocks_k(img, path):
    """The number of data blocks (not the indirect ones) of path."""
    return len(debugfs(img, "blocks " + path).split())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    root = os.path.join(out, "root")
    os.makedirs(root, exist_ok=True)
    data = os.urandom(1 << 20)
    for name, size in (("f1", 1 << 20), ("f2", 1 << 20), ("f3", 1 << 16), ("g", 1 << 16),
                       ("r", 1 << 16)):
        with open(os.path.join(root, name), "wb") as f:
            f.write(data[:size])
    with open(os.path.join(root, "ind"), "wb") as f:
        f.write(data[:12 * BLK])        # blocks 0-11: direct; 12: hole; 13: needs the
        f.seek(13 * BLK)                # indirect block
        f.write(data[:BLK])
    os.makedirs(os.path.join(root, "dir"), exist_ok=True)
    for name in ("x", "y"):
        with open(os.path.join(root, "dir", name), "wb") as f:
            f.write(data[:BLK])
    env = []
    disk = os.path.join(out, "disk.img")
    with open(disk, "wb") as d:
        for i, (name, fstype, opts, mkfs) in enumerate(FILESYSTEMS):
            img = os.path.join(out, name + ".img")
            with open(img, "wb") as f:
                f.truncate(SECT_PER_IMG * 512)
            subprocess.run(mkfs + ["-d", root, img], check=True)
            base = i * SECT_PER_IMG
            env.append(f'{name}_TYPE="{fstype}"')
            env.append(f'{name}_OPTS="{opts}"')
            env.append(f'{name}_GOOD="{table(base, [])}"')
            data_blocks = sum((file_blocks(img, f) for f in ("/f1", "/f2", "/f3")), [])
            env.append(f'{name}_ERR_DATA="{table(base, ranges(data_blocks))}"')
            env.append(f'{name}_ERR_MD="{table(base, ranges([inode_block(img, "/g")]))}"')
            env.append(f'{name}_ERR_MDW="{table(base, ranges([inode_block(img, "/g")]), "flakey")}"')
            env.append(f'{name}_ERR_INO1="{table(base, ranges([inode_block(img, "/f1")]))}"')
            env.append(f'{name}_ERR_DIRW="{table(base, ranges(file_blocks(img, "/dir")), "flakey")}"')
            env.append(f'{name}_ERR_RACE="{table(base, ranges(file_blocks(img, "/r")))}"')
            ind = indirect_block(img, "/ind")
            if ind is not None:
                env.append(f'{name}_ERR_IND="{table(base, ranges([ind]), "flakey")}"')
            last = SECT_PER_IMG // SPB - 1
            assert "not in use" in debugfs(img, f"testb {last}")
            env.append(f'{name}_ERR_FREE="{table(base, ranges([last]), "flakey")}"')
            env.append(f'{name}_FREE_OFF={last * BLK}')
            env.append(f'{name}_ERR_WRITES="{table(base, [(0, SECT_PER_IMG)], "flakey")}"')
            with open(img, "rb") as f:
                d.write(f.read())
            os.unlink(img)
        for i, (name, mkfs, md) in enumerate(EMPTY_FILESYSTEMS, len(FILESYSTEMS)):
            img = os.path.join(out, name + ".img")
            with open(img, "wb") as f:
                f.truncate(SECT_PER_IMG * 512)
            subprocess.run(mkfs + [img], check=True, capture_output=True)
            base = i * SECT_PER_IMG
            env.append(f'{name}_TYPE="{name}"')
            env.append(f'{name}_OPTS=""')
            env.append(f'{name}_GOOD="{table(base, [])}"')
            env.append(f'{name}_ERR_MD="{table(base, md(img), "flakey")}"')
            with open(img, "rb") as f:
                d.write(f.read())
            os.unlink(img)
        # "many": empty ext4 with 1 KiB blocks for kptest many-setup (one block a file),
        # after the others; its tables are made in the guest from FIEMAP.
        img = os.path.join(out, "many.img")
        with open(img, "wb") as f:
            f.truncate(MANY_SECT * 512)
        subprocess.run(MANY_MKFS + [img], check=True)
        base = (len(FILESYSTEMS) + len(EMPTY_FILESYSTEMS)) * SECT_PER_IMG
        env.append('many_TYPE="ext4"')
        env.append('many_OPTS=""')
        env.append(f'many_GOOD="0 {MANY_SECT} linear DEV {base}"')
        with open(img, "rb") as f:
            d.write(f.read())
        os.unlink(img)
        # "ext2k", after "many"
        img = os.path.join(out, "ext2k.img")
        kroot = os.path.join(out, "root-ext2k")
        os.makedirs(os.path.join(kroot, "big"), exist_ok=True)
        for i in range(BIG_NAMES):
            open(os.path.join(kroot, "big", big_name(i)), "wb").close()
        with open(img, "wb") as f:
            f.truncate(SECT_PER_IMG * 512)
        subprocess.run(["mkfs.ext2", "-q", "-F", "-b", "1024", "-d", kroot, img], check=True)
        assert file_blocks_k(img, "/big") == 12, "big must fill exactly its 12 direct blocks"
        last = int(debugfs(img, "bmap /big 11").split()[0])
        ind = next(b for b in range(last + 1, SECT_PER_IMG // 2)
                   if "not in use" in debugfs(img, f"testb {b}"))
        assert "not in use" in debugfs(img, f"testb {ind + 1}"), "no room for the data block"
        base += MANY_SECT
        env.append('ext2k_TYPE="ext2"')
        env.append('ext2k_OPTS=""')
        env.append(f'ext2k_GOOD="0 {SECT_PER_IMG} linear DEV {base}"')
        segs = [(ind * 2, 2)]
        env.append(f'ext2k_ERR_IND="{table(base, segs, "flakey")}"')
        env.append(f'ext2k_NEXT="{big_name(BIG_NAMES)}"')
        with open(img, "rb") as f:
            d.write(f.read())
        os.unlink(img)
    with open(os.path.join(out, "layout.env"), "w") as f:
        f.write("# generated by kernel-port/tests/mkimages.py\n" + "\n".join(env) + "\n")


REC_STRIDE = 64        # an xarray leaf node's 64 slots: each kept file alone in its leaf


def rec_image(img, n):
    """recmem's disk: /sparse/%06d for i < n, inode numbers REC_STRIDE apart."""
    root = img + ".root"
    sparse = os.path.join(root, "sparse")
    os.makedirs(sparse)
    for i in range(n):
        open(os.path.join(sparse, "%06d" % i), "wb").close()
        fill = os.path.join(sparse, "%06d.fill" % i)     # sorts before %06d of i + 1
        os.mkdir(fill)
        for k in range(REC_STRIDE - 2):
            open(os.path.join(fill, "%02d" % k), "wb").close()
    inodes = REC_STRIDE * n + 2 * n + 1024
    with open(img, "wb") as f:
        f.truncate((64 << 20) + 2 * 256 * inodes)
    subprocess.run(["mkfs.ext4", "-q", "-F", "-b", "1024", "-I", "256", "-N", str(inodes),
                    "-E", "lazy_itable_init=0,lazy_journal_init=0", "-d", root, img],
                   check=True)
    subprocess.run(["rm", "-rf", root], check=True)


EMPTY_FILESYSTEMS = [(n, m, {"vfat": vfat_md_sectors, "exfat": exfat_md_sectors}[n])
                     for n, m, _ in EMPTY_FILESYSTEMS]

if __name__ == "__main__":
    if sys.argv[1:2] == ["--rec"]:
        rec_image(sys.argv[2], int(sys.argv[3]))
    else:
        main()
