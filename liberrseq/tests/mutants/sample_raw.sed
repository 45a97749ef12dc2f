# file: errseq_core.c
# errseq_sample() returns the raw word, as before 2018: a reader opened after
# an unseen error never reports it (the PostgreSQL fsync problem).
s/^\t\told = 0;$/\t\told = old;/
