# file: errseq_core.c
# errseq_set() never bumps the counter, so a second error after a report is
# indistinguishable from the first.
s/new += ERRSEQ_CTR_INC;/new += 0;/
