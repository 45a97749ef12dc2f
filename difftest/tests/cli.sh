#!/usr/bin/env bash
# usage: cli.sh DIFFTEST CASE [VERSION]
# difftest's command line, a CASE per ctest (difftest-cli-CASE): each command run below
# must exit with the status given AND print the message given; the first that does not
# prints "FAIL: ..." with what it printed, and the script exits 1. Exit 0: the case holds.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DT=$1 case_=$2 version=${3:-}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
scn=$here/../scenarios
cmds="check predict gen batch compare judge shrink report help"
what=difftest
target() { "$DT" "$@"; }
. "$here/../../scripts/tests/cmdcheck.sh"
# keep NAME: save the last stdout as $t/NAME
keep() { cp "$t/out" "$t/$1"; }
same() { cmp -s "$t/$1" "$t/$2" || fail "stdout $1 and $2 differ"; }

case "$case_" in
help)
	# the usage on stdout, exit 0, for each way of asking
	for a in --help -h help; do
		run 0 $a
		has out '^usage: difftest COMMAND'
		for c in $cmds; do has out "^  $c "; done
		has out '^CONTRACT '
		has out '^FS '
		empty err
	done
	;;
no-command)
	run 2
	has err '^difftest: no command given$'
	has err '^usage: difftest COMMAND'
	empty out
	;;
command-help)
	# each command's own help: its usage line and options, on stdout, exit 0
	for c in $cmds; do
		for a in "$c --help" "$c -h" "help $c"; do
			run 0 $a
			# help's own help is the list of commands
			has out "^usage: difftest $([ "$c" = help ] && echo COMMAND || echo "$c ")"
			empty err
		done
	done
	run 0 gen --help
	has out '^  -s, --seed SEED '
	has out '^  -n, --scripts N '
	run 0 compare --help
	has out '^  -d, --divergent DIVFILE '
	has out '^Exit status: 0 no divergence, 1 divergences'
	has out '^FS +ext2, ext4-ordered'
	;;
version)
	run 0 --version
	has out "^difftest \\(liberrseq\\) ${version//./\\.}\$"
	empty err
	;;
long-options)
	# every long option does what its short one does
	run 0 gen -s 5 -n 2 -o 7 -p x -f tmpfs -R
	keep short
	run 0 gen --seed 5 --scripts 2 --ops=7 --prefix x --fs tmpfs --real
	keep long
	same short long
	has long '^script x\.s5\.1$'
	run 0 predict -c patched -f ext2 "$scn/meta.dt"
	keep short
	run 0 predict --contract patched --fs=ext2 "$scn/meta.dt"
	keep long
	same short long
	b=$here/../recordings/6.1/ext2/scenarios-stock.dt l=$here/../recordings/6.1/ext2/scenarios-stock.log
	run 1 compare -c patched -f ext2 -k stock -t "$t/a.tsv" -d "$t/a.dt" "$b" "$l"
	keep short
	run 1 compare --contract patched --fs ext2 --kernel stock --tsv "$t/b.tsv" \
		--divergent "$t/b.dt" "$b" "$l"
	keep long
	same short long
	same a.tsv b.tsv
	same a.dt b.dt
	has out '^DIVERGE '
	run 0 shrink -c patched -f ext2 -r 3 "$t/a.dt"
	keep short
	run 0 shrink --contract patched --fs ext2 --round 3 "$t/a.dt"
	keep long
	same short long
	has out '~r3c0$'
	# an option the command does not take, or does not know, names it
	run 2 check --fs ext2 "$scn/meta.dt"
	has err "^difftest check: unknown option '--fs'"
	run 2 gen --frob
	has err "^difftest gen: unknown option '--frob'"
	run 2 gen -x
	has err '^difftest gen: unknown option -x'
	run 2 compare --kernel
	has err '^difftest compare: option -k \(--kernel\) needs a value'
	run 2 gen --scripts 0
	has err "^difftest gen: -n \\(--scripts\\) '0': want a whole number from 1 to"
	run 2 gen --prefix 'a b'
	has err "^difftest gen: -p \\(--prefix\\) 'a b': want 1 to 24 letters, digits, -_\\.:\$"
	run 2 gen -p abcdefghijklmnopqrstuvwxy
	has err "want 1 to 24 letters"
	run 2 judge --line 5.4 "$scn/meta.dt" "$scn/meta.dt"
	has err "^difftest judge: -l \\(--line\\) '5.4': want 6.1 or 6.12\$"
	run 2 judge "$scn/meta.dt"
	has err "^difftest judge: wants BATCH and RESULTS, got 1 operand"
	;;
unknown-command)
	for a in frobnicate "help frobnicate"; do
		run 2 $a
		has err "^difftest: unknown command 'frobnicate' \\(commands: check, predict, gen, batch, compare, judge, shrink, report, help\\)$"
		empty out
	done
	;;
gen-seed)
	# without -s: the seed used, on stderr, and how to make the batch again
	run 0 gen -n 2 -o 5
	has err '^difftest gen: seed 1 \(no -s given; -s 1 makes this batch again\)$'
	keep noseed
	run 0 gen -s 1 -n 2 -o 5
	empty err
	keep seed
	same noseed seed
	;;
gen-names)
	# the longest names gen makes (a 24-character prefix, a 20-digit seed) are distinct,
	# and so are the names of shrink's candidates of them (ORIG~rROUNDcN), which the
	# guest's results are told apart by
	p=abcdefghijklmnopqrstuvwx
	run 0 gen -p $p -s 18446744073709551615 -n 3 -o 6
	keep g
	has g "^script $p\\.s18446744073709551615\\.2\$"
	dup=$(sed -n 's/^script //p' "$t/g" | sort | uniq -d)
	[ -z "$dup" ] || fail "gen: names given twice: $dup"
	run 0 shrink -r 1000000 "$t/g"
	dup=$(sed -n 's/^script //p' "$t/out" | sort | uniq -d | head -n 3)
	[ -z "$dup" ] || fail "shrink: candidate names given twice:" $dup
	;;
gen-stats)
	# -S counts, per switch, the scripts whose predicted results change when it is
	# flipped: md_cursor's count must be what predict says of the same batch under the
	# two contracts, script by script; a switch of another filesystem changes nothing
	run 0 gen -S -s 3 -n 120 -f ext2 -c patched,linux=6.12
	has out '^# difftest gen --stats: 120 script\(s\) of 30 op\(s\), seed 3, ext2, contract patched '
	has out '^fat_md_once +off +0 +0$'
	keep stats
	[ "$(grep -vc '^#' "$t/stats")" = "$(grep -o '[a-z_]*=[01]' "$t/stats" | grep -vc '^linux')" ] ||
		fail "not one line per switch: $(cat "$t/stats")"
	want=$(awk '$1 == "md_cursor" { print $3 }' "$t/stats")
	run 0 gen -s 3 -n 120 -f ext2 -c patched,linux=6.12
	keep batch
	"$DT" predict -c patched,linux=6.12 -f ext2 "$t/batch" | grep -v '^DT T' >"$t/p1" &&
		"$DT" predict -c patched,linux=6.12,no-md_cursor -f ext2 "$t/batch" |
		grep -v '^DT T' >"$t/p2" || fail "predict failed"
	got=$(diff "$t/p1" "$t/p2" | awk '/^[<>] # op/ { next } /^[<>] DT R/ { print }' | wc -l)
	n=$(paste -d '|' <(awk '/^DT S/ { s = $3 } /^DT R/ { print s, $0 }' "$t/p1") \
		<(awk '/^DT S/ { s = $3 } /^DT R/ { print s, $0 }' "$t/p2") |
		awk -F '|' '$1 != $2 { split($1, a, " "); print a[1] }' | sort -u | wc -l)
	[ "$want" -gt 0 ] || fail "md_cursor changes no prediction on ext2: $(cat "$t/stats")"
	[ "$n" = "$want" ] || fail "md_cursor: gen -S says $want scripts, predict differs in $n ($got lines)"
	;;
gen-mix)
	# the generator's mix: a mapping's stores and msync only in a mapping the model
	# made (none of the harness's refusals: EINVAL, no mapping; ERANGE, past its end)
	# and enough of them (a successful msync for one script in twenty; the generator
	# without the model's eyes made 2 in 1000); par lines over every op that races a sync, child lines
	# over ftruncate and fallocate, open with trunc
	for f in ext2 xfs; do
		run 0 gen -s 5 -n 300 -f $f
		keep b-$f
		"$DT" predict -f $f "$t/b-$f" >"$t/p-$f" || fail "predict -f $f failed"
		awk '/^# op [0-9]+ \(line [0-9]+\): / { op = $6; next }
			/^DT R/ && (op == "mwrite" || op == "msync") { print op, $5 }' \
			"$t/p-$f" | sort | uniq -c >"$t/m-$f"
		! grep -E ' (mwrite|msync) (EINVAL|ERANGE)$' "$t/m-$f" ||
			fail "$f: a store or msync without the mapping: $(cat "$t/m-$f")"
		n=$(awk '$2 == "msync" && $3 == "0" { print $1 }' "$t/m-$f")
		[ "${n:-0}" -ge 15 ] || fail "$f: ${n:-0} successful msync in 300 scripts: $(cat "$t/m-$f")"
		for o in write ftruncate fallocate close mmap; do
			grep -Eq "^par .*(^|[ ;]) ?$o d" "$t/b-$f" || fail "$f: no par line races $o"
		done
		grep -q '^par [a-z]* d[0-9]* ; close' "$t/b-$f" || fail "$f: no close second in par"
		! grep -q '^par close' "$t/b-$f" || fail "$f: a close first in par"
		for o in ftruncate fallocate; do
			grep -q "^child $o d" "$t/b-$f" || fail "$f: no child $o"
		done
		grep -q '^open d[0-9] f[0-9] .*trunc' "$t/b-$f" || fail "$f: no open with trunc"
	done
	# failread: on ext2 (whose inode blocks the guest finds) the open after it fails EIO
	# where the inode was evicted: at least 20 times in 300 scripts; on xfs every
	# failread is refused (EOPNOTSUPP)
	n=$(awk '/^# op [0-9]+ \(line [0-9]+\): failread$/ { fr = 1; next }
		/^# op [0-9]+ \(line [0-9]+\): open / { if (fr == 1) { fr = 2; next } }
		/^# op / { fr = 0 }
		/^DT R/ && fr == 2 && $5 == "EIO" { n++; fr = 0 }
		END { print n + 0 }' "$t/p-ext2")
	[ "$n" -ge 20 ] || fail "ext2: $n opens failed EIO after failread in 300 scripts"
	n=$(grep -A1 ': failread$' "$t/p-xfs" | grep -c '^DT R [0-9]* -1 EOPNOTSUPP$') ||
		fail "xfs: failread not refused"
	[ "$n" = "$(grep -c '^failread$' "$t/b-xfs")" ] || fail "xfs: $n failread refused of" \
		"$(grep -c '^failread$' "$t/b-xfs")"
	# the directory: on 6.12's stock ext2 (every change writes it out) a new name after
	# an error of the directory fails at least 20 times in 300 scripts, on the patched
	# kernel never; its descriptor's fsync reports the error; dirsync set on ext2,
	# refused on xfs
	"$DT" predict -f ext2 -c stock,linux=6.12 "$t/b-ext2" >"$t/s12" &&
		"$DT" predict -f ext2 -c patched,linux=6.12 "$t/b-ext2" >"$t/p12" ||
		fail "predict -f ext2 on 6.12 failed"
	creat_eio() {
		awk '/^# op [0-9]+ \(line [0-9]+\): open d[0-9]+ f[0-9] creat/ { c = 1; next }
			/^# op / { c = 0 }
			/^DT R/ && c && ($5 == "EIO" || $5 == "ENOSPC") { n++ }
			END { print n + 0 }' "$1"
	}
	n=$(creat_eio "$t/s12")
	[ "$n" -ge 20 ] || fail "ext2 6.12 stock: $n new names failed after an error of the directory"
	n=$(creat_eio "$t/p12")
	[ "$n" = 0 ] || fail "ext2 6.12 patched: $n new names failed"
	n=$(awk '/^DT S/ { dd = "" }
		/^# op [0-9]+ \(line [0-9]+\): open d[0-9]+ dir$/ { dd = $7 }
		/^# op [0-9]+ \(line [0-9]+\): fsync / { f = ($7 == dd); next }
		/^# op / { f = 0 }
		/^DT R/ && f && $4 == "-1" { n++ }
		END { print n + 0 }' "$t/p12")
	[ "$n" -ge 10 ] || fail "ext2 6.12 patched: $n fsyncs of the directory's descriptor failed"
	grep -A1 ': dirsync$' "$t/p-ext2" | grep -q '^DT R [0-9]* 0 0$' || fail "ext2: no dirsync set"
	n=$(grep -A1 ': dirsync$' "$t/p-xfs" | grep -c '^DT R [0-9]* -1 EOPNOTSUPP$') ||
		fail "xfs: no dirsync refused"
	[ "$n" = "$(grep -c '^dirsync$' "$t/b-xfs")" ] || fail "xfs: $n dirsync refused of" \
		"$(grep -c '^dirsync$' "$t/b-xfs")"
	;;
gen-ops)
	# -o (steps per script) is refused past what keeps every script within the 4096
	# operations a script holds (a cycle's closes and munmaps add lines to its step),
	# the limit said in the message and in --help; at the limit every script parses
	for o in 4096 2049 4097; do
		run 2 gen -n 1 -o $o
		has err "^difftest gen: -o \\(--ops\\) '$o': want a whole number from 1 to 2048"
		empty out
	done
	run 0 gen --help
	has out '^  -o, --ops N .* 1 to 2048'
	run 0 gen -s 1 -n 8 -o 2048
	keep g
	run 0 check "$t/g"
	has out ': 8 script\(s\) ok$'
	;;
bad-fs)
	for a in "gen -f zfs" "predict --fs zfs $scn/meta.dt" "compare -f zfs x y"; do
		run 2 $a
		has err "unknown filesystem 'zfs' \\(filesystems: ext2, ext4-ordered, ext4-journal, vfat, exfat, xfs, btrfs, tmpfs\\)$"
		empty out
	done
	;;
bad-contract)
	run 2 predict -c foo "$scn/meta.dt"
	has err "^difftest predict: bad contract 'foo': want stock, patched, or switches"
	for w in md_cursor keep_unseen syncfs_locked syncfs_cursor_only syncfs_bdev_cursor md_once \
		fat_md_once falloc_cursor mount_forgets remount_since bug=NAME linux=LINE; do
		has err "[ (]$w([,)]|\$)"
	done
	empty out
	run 2 predict -c stock,bug=frob "$scn/meta.dt"
	has err "^difftest predict: unknown bug 'frob' \\(bugs: sample_raw, no_sb_err, no_as_flags, sfr_any, enospc_as_eio, raw_sets_sb\\)$"
	;;
kernel-line)
	# a line the model has no facts for: the nearest, said on stderr; the predictions
	# are that line's (line612-meta-sb: 6.1 and 6.12 differ)
	f=$scn/line612-meta-sb.dt
	run 0 predict -c stock,linux=6.1 -f ext2 "$f"
	keep l61
	run 0 predict -c stock,linux=6.12 -f ext2 "$f"
	empty err
	keep l612
	! cmp -s "$t/l61" "$t/l612" || fail "6.1 and 6.12 predict alike: the case shows nothing"
	run 0 predict -c stock,linux=6.18 -f ext2 "$f"
	has err "^difftest: warning: no facts for kernel line '6\\.18'; using the nearest line the model knows, 6\\.12 \\(known: 6\\.1, 6\\.12; difftest/doc/kernels\\.md, \"Kernel lines\", says how to add a line\\)$"
	keep l618
	same l612 l618
	run 0 predict -c stock,linux=5.10 -f ext2 "$f"
	has err "'5\\.10'; using the nearest line the model knows, 6\\.1 "
	keep l510
	same l61 l510
	# a version of a known line is that line, no warning
	run 0 predict -c stock,linux=6.12.118 -f ext2 "$f"
	empty err
	keep l612118
	same l612 l612118
	run 2 predict -c stock,linux=foo -f ext2 "$f"
	has err "^difftest predict: bad kernel line 'foo': want a version such as 6\\.12 \\(the lines the model knows: 6\\.1, 6\\.12\\)$"
	empty out
	;;
batch)
	# scripts of several files as one batch; a bad one is named with its line, and
	# nothing is printed on stdout then
	u=$here/user
	run 0 batch "$u/lost-after-evict.dt" "$u/two.dt"
	[ "$(grep -c '^script ' "$t/out")" = 3 ] || fail "want 3 scripts"
	has out '^script lost-after-evict$'
	has out '^script syncfs-two-fds$'
	keep b
	run 0 check "$t/b"
	run 2 batch "$u/two.dt" "$here/bad/unknown-op.dt"
	has err "^difftest: $here/bad/unknown-op\.dt:4: unknown operation 'frobnicate'\$"
	empty out
	run 2 batch "$u/two.dt" "$u/same-name.dt"
	has err "^difftest: $u/same-name\.dt:2: a second script named meta-twice \(the first at $u/two\.dt:2\)\$"
	empty out
	;;
*)
	echo "cli.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
echo "$case_: PASS"
