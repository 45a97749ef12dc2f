// SPDX-License-Identifier: GPL-2.0
/*
 * The 32-bit errseq_t: the core shared with the kernel port, over port.h.
 * errseq_core.c derives from Linux lib/errseq.c (Jeff Layton, 2017).
 */
#include "port.h"
#include "errseq_core.c"
#include "cursor.c"
