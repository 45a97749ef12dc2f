-- pgtest, the workload client: commit 4000 new rows into t's emptied pages (the free space
-- map sends them there), take the committed count and checksum, then fill another table so
-- that this backend writes every remaining dirty buffer of t to the kernel itself. The
-- checkpointer only receives fsync requests for t's file; it has no buffer of t to write.
\set ON_ERROR_STOP 1
INSERT INTO t SELECT g, 1, repeat('y', 200) FROM generate_series(1, 4000) g;
SELECT 'committed', count(*), md5(string_agg(id || ':' || gen || ':' || pad, ',' ORDER BY id)) FROM t;
INSERT INTO flush SELECT g, repeat('z', 200) FROM generate_series(1, 4000) g;
SELECT 'pages_after', pg_relation_size('t') / 8192;
SELECT 'dirty_buffers_t', count(*) FROM pg_buffercache
	WHERE relfilenode = pg_relation_filenode('t') AND isdirty;
