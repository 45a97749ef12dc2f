#!/usr/bin/env bash
# Run the fsyncgate sequence with the real PostgreSQL server in QEMU guests, one boot per
# kernel and variant, and print one table row each (see README.md for the sequence).
# usage: pgtest/run.sh [--kernels stock,patched] [--variants evict,noevict,noerror,evict-xfs]
#                      [--out DIR] [--timeout S]
#   --out DIR     keep each guest's console log (guest-KERNEL-VARIANT.log) and the table
#                 (results.txt) there; default: a temporary directory, removed
#   --timeout S   per boot, default 900
# Table (results.txt, whitespace-separated, one header line):
#   kernel variant checkpoint rows_committed rows_after lost md5 recovery io_errors seconds
# checkpoint: ok (CHECKPOINT succeeded), PANIC (the server PANICked), error; lost =
# rows_committed - rows_after; md5 = same|DIFFERENT (the rows' checksum against the
# committed one); recovery = wal-replay when the restart replayed WAL; io_errors = writeback
# errors the kernel recorded in page-cache mappings during the sync (its filemap_set_wb_err
# tracepoint; 0 in the noerror control).
# Exit 0 when every run produced its row, 1 otherwise (what the kernel did with the
# data is pgtest/check.sh's business).
set -euo pipefail
. "$(dirname "$0")/../vm/lib.sh"
PT=$LIBERRSEQ_ROOT/pgtest
kernels=stock,patched variants=evict,noevict,noerror,evict-xfs out='' timeout=900
while [ $# -gt 0 ]; do
	case "$1" in
	--kernels) kernels=${2:?}; shift 2 ;;
	--variants) variants=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "pgtest/run.sh: unknown argument '$1' (see --help)" ;;
	esac
done
images=$("$PT/images.sh")
work=$(mktemp -d "${TMPDIR:-/tmp}/liberrseq-pgtest.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$out" ]; then out=$work/out; fi
mkdir -p "$out"

# the guest program: static, with the guest programs' fault injector, cached by its sources
flib=$LIBERRSEQ_ROOT/vm/guest/lib
src=("$PT/guest/pgguest.c" "$flib/fault.c" "$flib/fault.h")
bin=$LIBERRSEQ_CACHE/pgtest/bin/pgguest-$(cat "${src[@]}" | sha256sum | cut -c1-12)
if [ ! -x "$bin" ]; then
	mkdir -p "$(dirname "$bin")"
	gcc -static -O2 -Wall -Wextra -Werror -I"$flib" -o "$bin.tmp" \
		"$PT/guest/pgguest.c" "$flib/fault.c"
	mv -f "$bin.tmp" "$bin"
fi
etc=$work/etc
mkdir -p "$etc"
cp "$PT"/guest/fsyncgate.sh "$PT"/guest/*.sql "$images/passwd" "$images/group" "$etc/"

table=$out/results.txt
echo "kernel variant checkpoint rows_committed rows_after lost md5 recovery io_errors seconds" >"$table"
status=0
for k in ${kernels//,/ }; do
	for v in ${variants//,/ }; do
		log "pgtest: $k kernel, variant $v"
		cp --sparse=always "$images/cluster.img" "$work/cluster.img"
		cp --sparse=always "$images/soft.img" "$work/soft.img"
		cp --sparse=always "$images/xfs.img" "$work/xfs.img"
		glog=$out/guest-$k-$v.log
		t=$SECONDS rc=0
		"$VM_DIR/run.sh" --kernel "$k" -q --timeout "$timeout" --mem 512M \
			--disk "$work/cluster.img" --disk "$work/soft.img" --disk "$work/xfs.img" \
			--add "$bin:/usr/bin/pgguest" --add "$etc:/etc/pgtest" \
			-- sh /etc/pgtest/fsyncgate.sh "$v" >"$glog" 2>&1 || rc=$?
		secs=$((SECONDS - t))
		res=$(grep -a '^PGTEST-RESULT ' "$glog" | tail -n1 | tr -d '\r' || true)
		if [ "$rc" -ne 0 ] || [ -z "$res" ]; then
			echo "pgtest: $k $v: guest exit $rc, no result; last lines of $glog:" >&2
			tail -n 30 "$glog" >&2
			echo "$k $v FAILED-RUN - - - - - - $secs" >>"$table"
			status=1
			continue
		fi
		f() { echo "$res" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
		rc_=$(f rows_committed) ra=$(f rows_after)
		md5=DIFFERENT
		[ "$(f md5_committed)" != "$(f md5_after)" ] || md5=same
		echo "$k $v $(f checkpoint) $rc_ $ra $((rc_ - ra)) $md5 $(f recovery) $(f io_errors) $secs" >>"$table"
		grep -a '^PGTEST-LOGLINE ' "$glog" | tr -d '\r' | sed "s/^PGTEST-LOGLINE /log $k /" >>"$out/loglines.txt"
	done
done
column -t "$table"
[ ! -f "$out/loglines.txt" ] || cat "$out/loglines.txt"
exit $status
