-- pgtest, first client: a table whose blocks are allocated and clean on disk, and empty.
-- Rows are 200-byte tuples, ~36 to a page: 4000 rows fill ~120 pages, far more than the
-- 32 shared buffers, so the workload's backend writes the dirty pages to the kernel itself.
\set ON_ERROR_STOP 1
CREATE EXTENSION pg_buffercache;
-- vacuum_truncate off: the emptied pages stay in the file, on the blocks ext4 allocated
CREATE TABLE t (id int, gen int, pad text) WITH (autovacuum_enabled = off, vacuum_truncate = off);
INSERT INTO t SELECT g, 0, repeat('x', 200) FROM generate_series(1, 4000) g;
-- ext4 delalloc allocates at writeback: the checkpoint writes and fsyncs the pages, so
-- from here on every block of t has a physical address (FIEMAP) and is overwritten in place
CHECKPOINT;
DELETE FROM t;
VACUUM t;
CREATE TABLE flush (id int, pad text) WITH (autovacuum_enabled = off);
CHECKPOINT;
SELECT 'relpath', pg_relation_filepath('t');
SELECT 'pages_before', pg_relation_size('t') / 8192;
