# file: errseq_core.c
# "since" read and written with plain accesses, as upstream lib/errseq.c does:
# a data race with the cursor's lockless check.
s/READ_ONCE(\*since)/*since/
s/WRITE_ONCE(\*since, new);/*since = new;/
