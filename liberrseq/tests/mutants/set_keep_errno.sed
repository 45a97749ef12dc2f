# file: errseq_core.c
# errseq_set() does not clear the previous errno: the word holds the OR of
# the errnos, and a report is not the errno of the latest set.
s/new = (old & ~(MAX_ERRNO|ERRSEQ_SEEN)) | -err;/new = (old \& ~ERRSEQ_SEEN) | -err;/
