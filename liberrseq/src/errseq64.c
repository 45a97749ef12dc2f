// SPDX-License-Identifier: GPL-2.0
/*
 * errseq64_t: the same core text with a 64-bit word, so the counter has 51
 * bits instead of 19 (see port.h for the renaming).
 */
#define ERRSEQ_PORT_64 1
#include "port.h"
#include "errseq_core.c"
#include "cursor.c"
