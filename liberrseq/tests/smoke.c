#include <errseq.h>
#include <stdio.h>
int main(void)
{
	errseq_t e = 0, s = errseq_sample(&e);
	errseq_set(&e, -5);
	printf("%x %d %x\n", e, errseq_check_and_advance(&e, &s), e);
	return 0;
}
