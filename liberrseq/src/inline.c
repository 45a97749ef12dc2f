// SPDX-License-Identifier: GPL-2.0
/*
 * A real, exported symbol for each inline function of errseq.h, for FFI
 * users and debuggers (liburing's ffi.c does the same).
 */
#define LIBERRSEQ_BUILDING 1
/* These are the definitions; the header has no separate prototypes. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#define ERRSEQ_INLINE ERRSEQ_API
#include "errseq.h"
