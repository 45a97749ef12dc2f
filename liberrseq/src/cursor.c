/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader cursor, after the kernel's file_check_and_advance_wb_err():
 * a lockless check, then check_and_advance under the cursor's lock. Compiled
 * once per width, like errseq_core.c (see port.h).
 */

int errseq_cursor_init(struct errseq_cursor *cur, errseq_t *eseq)
{
	/* A default mutex: no allocation, so nothing can fail. */
	cur->lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	WRITE_ONCE(cur->since, errseq_sample(eseq));
	return 0;
}

void errseq_cursor_destroy(struct errseq_cursor *cur)
{
	pthread_mutex_destroy(&cur->lock);
}

/*
 * The inline errseq_cursor_report() saw a change. Re-check under the lock: a
 * thread that reported the same change before we got the lock has advanced
 * @since, and errseq_check_and_advance() then returns 0 for us.
 */
int errseq_cursor_report_slow(struct errseq_cursor *cur, errseq_t *eseq)
{
	int err;

	errseq_port_lock(&cur->lock);
	err = errseq_check_and_advance(eseq, &cur->since);
	errseq_port_unlock(&cur->lock);
	return err;
}
