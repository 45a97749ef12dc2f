/* A tiny program using an installed liberrseq: one writer, two readers. */
#include <errno.h>
#include <errseq.h>
#include <stdio.h>

int main(void)
{
	errseq_t wb_err = 0;
	struct errseq_cursor a, b;
	int ra, rb, again;

	if (errseq_cursor_init(&a, &wb_err) || errseq_cursor_init(&b, &wb_err))
		return 2;
	errseq_set(&wb_err, -EIO);
	ra = errseq_cursor_report(&a, &wb_err);
	rb = errseq_cursor_report(&b, &wb_err);
	again = errseq_cursor_report(&a, &wb_err);
	printf("reader a: %d, reader b: %d, a again: %d (version %#x)\n", ra, rb,
	       again, LIBERRSEQ_VERSION);
	errseq_cursor_destroy(&a);
	errseq_cursor_destroy(&b);
	return ra == -EIO && rb == -EIO && again == 0 ? 0 : 1;
}
