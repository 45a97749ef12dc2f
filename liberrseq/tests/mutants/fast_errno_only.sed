# file: errseq.h
# errseq_check_fast() compares only the errno bits of the word with since:
# the same errno set again after a report (only the counter moved) looks like
# no change, on the inline fast path of every cursor report.
s/ERRSEQ_LOAD_RELAXED(eseq) == since/(ERRSEQ_LOAD_RELAXED(eseq) \& ERRSEQ_ERRNO_MASK) == (since \& ERRSEQ_ERRNO_MASK)/
