# file: errseq_core.c
# check_and_advance advances "since" to the word it read, without the SEEN
# it just set: the next check differs from the word and reports the same
# error again.
s/WRITE_ONCE(\*since, new);/WRITE_ONCE(*since, old);/
