// SPDX-License-Identifier: GPL-2.0
/* The filesystem table: each enum dt_fs and its rules (model/fs-*.c). */
#include <string.h>

#include "internal.h"

static const struct dt_fs_rules *const table[FS__COUNT] = {
	[FS_EXT2] = &dt_fs_ext2,
	[FS_EXT4_ORDERED] = &dt_fs_ext4_ordered,
	[FS_EXT4_JOURNAL] = &dt_fs_ext4_journal,
	[FS_VFAT] = &dt_fs_vfat,
	[FS_EXFAT] = &dt_fs_exfat,
	[FS_XFS] = &dt_fs_xfs,
	[FS_BTRFS] = &dt_fs_btrfs,
	[FS_TMPFS] = &dt_fs_tmpfs,
};

const struct dt_fs_rules *dt_fs_rules_of(enum dt_fs fs)
{
	return table[(unsigned)fs < FS__COUNT ? fs : FS_EXT2];
}

const char *dt_fs_name(enum dt_fs fs)
{
	return (unsigned)fs < FS__COUNT ? table[fs]->name : "?";
}

int dt_fs_has_bdev(enum dt_fs fs)
{
	return dt_fs_rules_of(fs)->has_bdev;
}

int dt_fs_parse(const char *s, enum dt_fs *out)
{
	for (int i = 0; i < FS__COUNT; i++)
		if (!strcmp(s, table[i]->name)) {
			*out = (enum dt_fs)i;
			return 0;
		}
	return -1;
}
