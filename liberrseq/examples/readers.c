// SPDX-License-Identifier: GPL-2.0
/*
 * Three "file descriptors" on one object; writeback fails twice. Every
 * descriptor open before an error reports it exactly once, as fsync() does.
 */
#include <errno.h>
#include <errseq.h>
#include <stdio.h>
#include <string.h>

static errseq_t wb_err;			/* the object's error word */

static void report(const char *who, struct errseq_cursor *fd)
{
	int err = errseq_cursor_report(fd, &wb_err);	/* "fsync" */

	printf("%-8s fsync: %s\n", who, err ? strerror(-err) : "ok");
}

int main(void)
{
	struct errseq_cursor a, b, c;

	errseq_cursor_init(&a, &wb_err);	/* "open" */
	errseq_cursor_init(&b, &wb_err);
	errseq_record(&wb_err, 0);		/* writeback succeeded: no-op */
	errseq_record(&wb_err, -EIO);		/* writeback failed */
	report("a", &a);			/* EIO */
	report("a again", &a);			/* ok: already reported */
	errseq_cursor_init(&c, &wb_err);	/* opened after a saw it */
	report("c", &c);			/* ok */
	errseq_record(&wb_err, -ENOSPC);
	report("b", &b);			/* ENOSPC: the latest error */
	report("c", &c);			/* ENOSPC */
	errseq_cursor_destroy(&a);
	errseq_cursor_destroy(&b);
	errseq_cursor_destroy(&c);
	return 0;
}
