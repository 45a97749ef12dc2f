# file: cursor.c
# The cursor's slow path without its lock: two threads sharing a cursor can
# both report one error.
/errseq_port_lock\|errseq_port_unlock/d
