/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Consumer of the installed liberrseq-table: two handles on one object, an
 * error set after both opened is reported once to each.
 */
#include <errno.h>
#include <stdio.h>

#include <errseq_table.h>

int main(void)
{
	struct errseq_table_handle *a, *b;
	struct errseq_table *t;
	int ra, rb;

	errseq_table_thread_register();
	t = errseq_table_new(16, 0);
	if (!t || errseq_table_open(t, 42, 0, &a) < 0 || errseq_table_open(t, 42, 0, &b) < 0) {
		fprintf(stderr, "table consumer: setup failed\n");
		return 1;
	}
	errseq_table_set_error(t, 42, -EIO);
	ra = errseq_table_check(a);
	rb = errseq_table_check(b);
	if (ra != -EIO || rb != -EIO || errseq_table_check(a) != 0) {
		fprintf(stderr, "table consumer: got %d %d\n", ra, rb);
		return 1;
	}
	errseq_table_close(a);
	errseq_table_close(b);
	errseq_table_destroy(t);
	errseq_table_thread_unregister();
	printf("table consumer: EIO reported once to each handle\n");
	return 0;
}
