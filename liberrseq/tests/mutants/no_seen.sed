# file: errseq_core.c
# check_and_advance never sets SEEN: the counter never moves again.
s/new = old | ERRSEQ_SEEN;/new = old;/
