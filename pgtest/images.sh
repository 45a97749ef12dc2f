#!/usr/bin/env bash
# Build (once, cached) the two disk images pgtest's guest runs on:
#   soft.img     ext2, read-only in the guest: Debian's PostgreSQL 15 (the binaries the test
#                runs, the server's loadable modules, /usr/share/postgresql/15) and every
#                library ldd lists for them, flat in /lib (LD_LIBRARY_PATH), plus zoneinfo UTC
#   cluster.img  ext4: a fresh cluster in /pgdata (initdb on the host as the package's
#                non-root postgres user, --locale=C) with pgtest's settings appended to its
#                postgresql.conf; mkfs.ext4 -d keeps the owner (the host postgres uid)
#   xfs.img      an empty xfs (300 MiB, sparse): the guest copies the cluster onto it for
#                the evict-xfs variant
#   passwd, group  the guest's, with that postgres user
# Prints the directory holding them. The key covers this script, the installed
# postgresql-15 version and the host's postgres uid; nothing is ever committed.
# usage: pgtest/images.sh
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
"$LIBERRSEQ_ROOT/scripts/deps.sh" postgres vm >&2
PG=/usr/lib/postgresql/15
pgver=$(dpkg-query -W -f='${Version}' postgresql-15)
uid=$(id -u postgres) gid=$(id -g postgres)
key=$( { sha256sum "$0"; echo "$pgver $uid $gid"; } | sha256sum | cut -c1-16)
dir=$LIBERRSEQ_CACHE/pgtest/images-$key
mkdir -p "$LIBERRSEQ_CACHE/pgtest"
exec 9>"$LIBERRSEQ_CACHE/pgtest/images.lock"
flock 9
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
work=$(mktemp -d "${TMPDIR:-/tmp}/liberrseq-pgimg.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"

# --- the software image
soft=$work/soft
bins=(postgres pg_ctl psql pg_controldata)
mkdir -p "$soft$PG/bin" "$soft$PG/lib" "$soft/lib" "$soft/usr/share/zoneinfo"
for b in "${bins[@]}"; do cp -p "$PG/bin/$b" "$soft$PG/bin/"; done
# the server's loadable modules, without the LLVM JIT (jit = off; it would pull in libLLVM)
for so in "$PG"/lib/*.so; do
	[ "$(basename "$so")" = llvmjit.so ] || cp -p "$so" "$soft$PG/lib/"
done
mkdir -p "$soft/usr/share/postgresql"
cp -rp /usr/share/postgresql/15 "$soft/usr/share/postgresql/"
cp -L /usr/share/zoneinfo/UTC "$soft/usr/share/zoneinfo/UTC"
# every shared library ldd lists, flat (the guest sets LD_LIBRARY_PATH=/pg/lib)
for f in "$soft$PG"/bin/* "$soft$PG"/lib/*.so; do ldd "$f"; done | grep -o '/[^ ]*\.so[^ ]*' |
	sort -u | while read -r l; do cp -L "$l" "$soft/lib/"; done
mkfs.ext2 -q -F -d "$soft" -L pgsoft "$dir/soft.img" "$(($(du -sm "$soft" | cut -f1) * 5 / 4 + 16))M" >&2

# --- the cluster image
stage=$work/cluster
mkdir -p "$stage"
chown postgres:postgres "$stage"
runuser -u postgres -- "$PG/bin/initdb" -D "$stage/pgdata" -A trust -U postgres --locale=C \
	-E UTF8 --no-sync --no-instructions >"$dir/initdb.log"
# initdb wrote the host's time zone, which the guest may not have: UTC below instead
sed -i '/^timezone *=/d; /^log_timezone *=/d' "$stage/pgdata/postgresql.conf"
cat >>"$stage/pgdata/postgresql.conf" <<'CONF'

# ---- pgtest (pgtest/images.sh): the fsyncgate run in a small QEMU guest ----
listen_addresses = ''                 # the guest kernel has AF_UNIX only
unix_socket_directories = '/tmp'
max_connections = 10
dynamic_shared_memory_type = sysv
huge_pages = off
jit = off
TimeZone = 'UTC'
log_timezone = 'UTC'
# 32 buffers: a client's backend writes its table's dirty buffers to the kernel itself
shared_buffers = 256kB
# nothing but the backend writes data pages before the checkpoint, and nobody starts
# writeback early (sync_file_range): the writes stay dirty in the page cache until pgtest's sync
bgwriter_lru_maxpages = 0
backend_flush_after = 0
bgwriter_flush_after = 0
checkpoint_flush_after = 0
autovacuum = off
# checkpoints only when asked
checkpoint_timeout = 1d
max_wal_size = 1GB
# fsync failures PANIC (the default since 12), and a PANIC stops the server: pgtest
# heals the device and restarts it (otherwise recovery would run into the error again)
data_sync_retry = off
restart_after_crash = off
fsync = on
full_page_writes = on
log_checkpoints = on
log_min_messages = warning
update_process_title = off
CONF
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -d "$stage" -L pgdata "$dir/cluster.img" 256M >&2
truncate -s 300M "$dir/xfs.img"
mkfs.xfs -q -f -L pgxfs "$dir/xfs.img" >&2
printf 'root:x:0:0:root:/root:/bin/sh\npostgres:x:%s:%s:PostgreSQL:/tmp:/bin/sh\n' "$uid" "$gid" >"$dir/passwd"
printf 'root:x:0:\npostgres:x:%s:\n' "$gid" >"$dir/group"
touch "$dir/done"
find "$LIBERRSEQ_CACHE/pgtest" -maxdepth 1 -name 'images-*' ! -name "images-$key" -exec rm -rf {} +
echo "$dir"
