-- pgtest, after the restart: what the database holds
\set ON_ERROR_STOP 1
SELECT 'after', count(*), coalesce(md5(string_agg(id || ':' || gen || ':' || pad, ',' ORDER BY id)), '-') FROM t;
