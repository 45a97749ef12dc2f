# file: errseq_core.c
# check_and_advance gives up after a lost SEEN swap and advances "since" to a
# value the word never held, as Linux 6.1 does: an error set later can be lost.
/^int errseq_check_and_advance/,/^}/s/^\t\told = cur;$/\t\tbreak;/
