# file: table.c
# errseq_table_close() moves the object on the LRU list without lru_lock,
# racing the reclaimer's walk. ThreadSanitizer must report a data race.
/MUTANT: unlocked_close/s|^|//|
