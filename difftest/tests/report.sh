#!/usr/bin/env bash
# usage: report.sh BUILD CASE
# difftest report, a CASE per ctest (difftest-report-CASE), on campaign directories made
# here as campaign.sh makes them: recorded guest results (recordings/6.12: the 6.12
# scenarios on stock and patched, ext2 and ext4-ordered) compared by dt_judge (lib.sh),
# the stock kernel held to "stock" and "patched", the patched one to "patched", and
# judged by dt_contract_check (the stock kernel with known deviations: on ext4-ordered
# three UNEXPLAINED); a campaign.info, speed.tsv and wall.tsv as a run writes them; one
# minimal script. Each
# command must exit with the status given AND print the message given; the first that
# does not prints "FAIL: ..." with its output, and the script exits 1. BUILD: the cmake
# build tree (difftest/difftest).
#   markdown  the Markdown and the chart's data are those campaign.sh's awk programs
#             wrote for that directory (report/expected.md, expected-chart.dat, made by
#             campaign.sh before difftest report existed), with the verdict (passed) and
#             the judge's table and lines; a chart drawn when gnuplot is there, said not
#             drawn when it is not
#   merge     the directory as two shards: merged (rows.tsv, the scripts, the judge
#             outputs: their lines one shard's after the other, their counts summed) and
#             reported as campaign.sh --merge did (report/expected-merge.md)
#   judged    report/judged/, a campaign directory (made by report/make-judged.sh, which
#             must make it as committed) in which the patched kernel breaks the contract
#             itself and its guest did not run every script: the Markdown is
#             report/expected-judged.md, the verdict failed and why, with every JUDGE,
#             UNJUDGED line; the JSON holds the verdict and every line of the judge
#             outputs (report-json.py)
#   json      the JSON parses; its rows, classes, divergences and cut scripts are those
#             of rows.tsv and the compare outputs, every one (report-json.py)
#   decode    the errseq words of a divergence decoded: a racing fsync's no-op event
#             (recordings/6.1/ext4-journal/par-races-patched-0014-tampered-noop-wrong-word.log)
#             0x2005 is EIO, not seen, counter 1; scripts the guest did not finish or run
#             (recordings/6.1/ext2/scenarios-patched-0014-tampered-cut-mid-op.log), a block
#             without trace events (-T) and one the guest could not set up are in the JSON
#             as incomplete, missing, no trace and setup, and in its rows as not run, never
#             as divergent or attributed
#   errors    what is not a campaign directory, or not the shards of one, is refused
#             with exit status 2 and says what and where (FILE:LINE); so is a judge
#             output that is not judge's (a line, its summary, its name, its counts)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 case_=$2
DT=$build/difftest/difftest
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
what="difftest report"
target() { "$DT" report "$@"; }
. "$here/../../scripts/tests/cmdcheck.sh"
# the fixtures' progress lines (dt_judge) are not this test's
progress() { :; }
. "$here/../lib.sh"
# the report's date (SOURCE_DATE_EPOCH): 2026-12-07 06:23 UTC
export SOURCE_DATE_EPOCH=1796624580
unset DT_GNUPLOT

# campaign DIR [SHARD SHARDS]: the 6.12 fixture in DIR (a shard's campaign.info with SHARD)
campaign() {
	local d=$1 rec=$here/../recordings/6.12 fs k c
	mkdir -p "$d"
	for fs in ext2 ext4-ordered; do
		# (one script for both modes: ext2's, which the corpus keeps)
		cp "$rec/ext2/scenarios-stock.dt" "$d/batch-$fs.dt"
		for k in stock patched; do cp "$rec/$fs/scenarios-$k.log" "$d/res-$k-$fs.log"; done
	done
	# as campaign.sh: each kernel's own contract, and stock held to "patched"
	for kc in stock:stock stock:patched patched:patched; do
		k=${kc%:*} c=${kc#*:}
		dt_judge "$DT" "$d" "$k" "$c" "$c,linux=6.12" 0 "" ext2 ext4-ordered ||
			fail "dt_judge $k $c failed"
	done
	# the contract itself, each kernel held to it as campaign.sh does
	for k in stock patched; do
		dt_contract_check "$DT" "$d" "$k" 6.12 "$k" ext2 ext4-ordered ||
			fail "dt_contract_check $k failed"
	done
	# a minimal script (the first divergent one), and its compare (not read)
	sed '/^end$/q' "$d/div-stock-patched-ext2.dt" >"$d/cases-stock-patched-ext2.dt"
	printf 'CUT x: ops 1..2 not compared: not read\ncompared 1 script(s) on stock, ext2, contract stock: 0 divergent, 1 cut short\n' \
		>"$d/compare-final-stock-patched-ext2.txt"
	printf 'stock\text2\t%s\t%s\nstock\text2\t40\t2.5\nstock\text4-ordered\t300\t7.25\npatched\text2\t310\t4\n' \
		347 11.5 >"$d/speed.tsv"
	printf 'stock\t687\t31\t2\npatched\t310\t19\t1\n' >"$d/wall.tsv"
	printf '%s\n' seed=1 ops=0 per=30 fs=ext2,ext4-ordered kernels=stock,patched line=6.12 \
		contract= scenarios=1 scripts= bug= "shard=${2:-1}" "shards=${3:-1}" wall=95 status=0 \
		failures= custom= "source=linux-source-6.12 6.12.118-1~deb12u1" >"$d/campaign.info"
}

case "$case_" in
markdown)
	campaign "$t/c"
	mkdir "$t/r"
	# no gnuplot: the report says so, and its data is the first table
	DT_GNUPLOT=$t/no-gnuplot run 0 -m "$t/r/report.md" -g "$here/../chart.gp" "$t/c"
	has out "^report: $t/r/report\\.md\$"
	lacks out '^chart: '
	has err '^difftest report: warning: no chart in the report: gnuplot is not installed'
	diff -u "$here/report/expected.md" "$t/r/report.md" >"$t/diff" ||
		fail "the Markdown is not campaign.sh's: $(cat "$t/diff")"
	cmp -s "$here/report/expected-chart.dat" "$t/r/report-chart-6.12.dat" ||
		fail "the chart's data is not campaign.sh's: $(cat "$t/r/report-chart-6.12.dat")"
	# with neither -m nor -j: the Markdown on stdout (no chart: it has no place to go)
	run 0 "$t/c"
	sed '/^Chart: /,/^$/d' "$here/report/expected.md" | diff -u - "$t/out" >"$t/diff" ||
		fail "stdout is not the report but its chart: $(cat "$t/diff")"
	if command -v gnuplot >/dev/null; then
		run 0 -m "$t/r/report.md" -g "$here/../chart.gp" "$t/c"
		has out "^chart: $t/r/report-chart-6\\.12\\.svg\$"
		head -c 600 "$t/r/report-chart-6.12.svg" | grep -q '<svg' || fail "no SVG drawn"
		grep -qx '!\[ops and divergent scripts (attributed, unexplained) per filesystem mode, kernel and contract\](report-chart-6\.12\.svg)' \
			"$t/r/report.md" || fail "the report does not link its chart"
	fi
	;;
merge)
	campaign "$t/s1" 1 2
	campaign "$t/s2" 2 2
	DT_GNUPLOT=$t/no-gnuplot run 0 -M "$t/m" -m "$t/m/report.md" -g "$here/../chart.gp" \
		-j "$t/m/report.json" "$t/s1" "$t/s2/"
	has out "^merged: $t/m\$"
	has out "^json: $t/m/report\\.json\$"
	# the shards' directories as the expected report names them
	sed "s|$t/s|SHARD|g" "$t/m/report.md" >"$t/merged.md"
	diff -u "$here/report/expected-merge.md" "$t/merged.md" >"$t/diff" ||
		fail "the merged Markdown is not campaign.sh --merge's: $(cat "$t/diff")"
	# the two shards are alike: each merged row is a shard's, every count doubled
	python3 -c '
import sys
rows = lambda f: [l.rstrip("\n").split("\t") for l in open(f)]
one, two = rows(sys.argv[1]), rows(sys.argv[2])
assert len(one) == len(two), (len(one), len(two))
for a, b in zip(one, two):
    why = ",".join(k + ":" + str(2 * int(v)) for k, v in (w.rsplit(":", 1) for w in a[8].split(",")))
    assert b == a[:4] + [str(2 * int(x)) for x in a[4:8]] + [why, str(2 * int(a[9]))], (b, a)
' "$t/s1/rows.tsv" "$t/m/rows.tsv" >"$t/diff" 2>&1 ||
		fail "the merged rows are not the shards' summed: $(cat "$t/diff")"
	for f in speed.tsv wall.tsv div-stock-patched-ext2.dt cases-stock-patched-ext2.dt; do
		cmp -s <(cat "$t/s1/$f" "$t/s2/$f") "$t/m/$f" || fail "$f is not the shards' one after the other"
	done
	# the judge outputs: the shards' lines one after the other, one summary of their sums
	for f in "$t"/s1/judge-*.txt; do
		f=${f##*/}
		python3 - "$t/s1/$f" "$t/s2/$f" "$t/m/$f" >"$t/diff" 2>&1 <<'EOF' || fail "the merged $f: $(cat "$t/diff")"
import re, sys
one, two, got = (open(f).read().splitlines() for f in sys.argv[1:])
assert got[:-1] == one[:-1] + two[:-1], got
# the counts: the numbers but those in the contract's text (switch=N, linux=6.12)
num = lambda l: [int(n) for n in re.findall(r"(?<![=\w.])\d+(?![\w.=])", l)]
assert re.sub(r"\d+", "N", got[-1]) == re.sub(r"\d+", "N", one[-1]), (got[-1], one[-1])
assert num(got[-1]) == [a + b for a, b in zip(num(one[-1]), num(two[-1]))], (got[-1], one[-1])
EOF
	done
	[ -s "$t/m/judge-stock-ext4-ordered.txt" ] || fail "no merged judge-stock-ext4-ordered.txt"
	[ ! -e "$t/m/div-stock-stock-ext2.dt" ] || fail "an empty divergent file merged"
	python3 "$here/report-json.py" "$t/m/report.json" "$t/m/rows.tsv" "$t/s1" "$t/s2" >"$t/out" 2>&1 ||
		fail "the merge's JSON: $(cat "$t/out")"
	;;
json)
	campaign "$t/c"
	run 0 -j "$t/report.json" "$t/c"
	has out "^json: $t/report\\.json\$"
	lacks out '^report: '
	python3 -m json.tool "$t/report.json" >/dev/null 2>"$t/err" || fail "not JSON: $(cat "$t/err")"
	python3 "$here/report-json.py" "$t/report.json" "$t/c/rows.tsv" "$t/c" >"$t/out" 2>&1 ||
		fail "the JSON: $(cat "$t/out")"
	cat "$t/out"
	;;
judged)
	"$here/report/make-judged.sh" "$DT" "$t/j" 2>"$t/err" || fail "make-judged.sh: $(cat "$t/err")"
	diff -ru "$here/report/judged" "$t/j" >"$t/diff" ||
		fail "report/judged is not what make-judged.sh makes now (make it again: tests/report/make-judged.sh BUILD/difftest/difftest tests/report/judged): $(cat "$t/diff")"
	mkdir "$t/r"
	run 0 -m "$t/r/report.md" -j "$t/r/report.json" "$here/report/judged"
	diff -u "$here/report/expected-judged.md" "$t/r/report.md" >"$t/diff" ||
		fail "the Markdown is not report/expected-judged.md: $(cat "$t/diff")"
	# what judge said that breaks the contract or could not be judged: every line there
	grep -h '^\(JUDGE\|UNJUDGED\|UNEXPLAINED\) ' "$here"/report/judged/judge-patched-*.txt >"$t/want"
	[ -s "$t/want" ] || fail "report/judged has no violation"
	grep -Fxf "$t/want" "$t/r/report.md" | cmp -s - "$t/want" ||
		fail "the Markdown does not say every JUDGE and UNJUDGED line of the patched kernel"
	has_md() { grep -qxF "$1" "$t/r/report.md" || fail "the Markdown has no line '$1'"; }
	has_md '| patched | ext4-ordered | 18 | 1 | - | 0 | 398 |'
	has_md '| patched | ext2 | 14 | 0 | - | 4 | 341 |'
	# the verdict, and why: campaign.info's failures=, each said
	has_md "**Verdict: failed** (campaign.sh's exit status 1): patched diverged from its own contract on ext4-ordered (difftest compare); patched's guest did not run or finish every script on ext2, or its harness failed (not run); patched broke the contract itself on ext4-ordered (difftest judge); difftest judge could not judge every script of patched on ext2."
	python3 "$here/report-json.py" "$t/r/report.json" "$here/report/judged/rows.tsv" \
		"$here/report/judged" >"$t/out" 2>&1 || fail "the JSON: $(cat "$t/out")"
	cat "$t/out"
	;;
decode)
	# a 6.1 campaign of one mode each: patched, ext4-journal, the tampered race; ext2, a
	# log cut in the middle of an op
	d=$t/c
	mkdir -p "$d"
	cp "$here/../recordings/6.1/ext4-journal/par-races-patched-0014.dt" "$d/batch-ext4-journal.dt"
	cp "$here/../recordings/6.1/ext4-journal/par-races-patched-0014-tampered-noop-wrong-word.log" "$d/res-patched-ext4-journal.log"
	cp "$here/../recordings/6.1/ext2/scenarios-stock.dt" "$d/batch-ext2.dt"
	cp "$here/../recordings/6.1/ext2/scenarios-patched-0014-tampered-cut-mid-op.log" "$d/res-patched-ext2.log"
	# and a kernel whose ext2 log has a block without trace events (NOTRACE under -T) and
	# one the guest could not set up (SETUP: DT X, no results)
	awk '/^DT S scn.enospc/ { print; print "DT X mount of /dev/mapper/dt0 failed: Input/output error"; skip = 1; next }
		skip && /^DT E / { skip = 0 } !skip' \
		"$here/../recordings/6.1/ext2/scenarios-patched-0014-tampered-no-trace.log" >"$d/res-patched-0014-ext2.log"
	c=patched,no-syncfs_bdev_cursor,no-md_once,no-fat_md_once,no-falloc_cursor,no-mount_forgets,no-remount_since,no-md_locked
	dt_judge "$DT" "$d" patched "$c" "$c" 0 "" ext4-journal ext2 || true
	dt_judge "$DT" "$d" patched-0014 "$c" "$c" 0 "" ext2 || true
	# (a campaign.info that does not say why it failed: a campaign.sh from before)
	printf '%s\n' seed=1 ops=0 per=30 fs=ext4-journal,ext2 kernels=patched,patched-0014 line=6.1 \
		contract="$c" scenarios=1 scripts= bug= shard=1 shards=1 wall=9 status=1 custom= source=x \
		>"$d/campaign.info"
	run 0 -j "$t/r.json" "$d"
	# the JSON holds every DIVERGE, MISSING, INCOMPLETE, NOTRACE and SETUP line
	python3 "$here/report-json.py" "$t/r.json" "$d/rows.tsv" "$d" >"$t/out" 2>&1 ||
		fail "the JSON: $(cat "$t/out")"
	python3 - "$t/r.json" >"$t/out" 2>&1 <<'EOF' || fail "$(cat "$t/out")"
import json, sys
j = json.load(open(sys.argv[1]))
div = {d["script"]: d for d in j["divergences"]}
race = div["random.s1002.39"]
assert race["kind"] == "divergent" and race["attributed_to"] == [], race
assert race["op"] == 23 and race["op_text"] == "par fsync d1 ; fdatasync d1", race
assert race["observed"]["results"] == [{"ret": 0, "errno": None}, {"ret": -1, "errno": "EIO"}]
noop = race["observed"]["trace"][1]
assert noop["text"] == "mdadv f2 0x2005 0x2005" and noop["event"] == "mdadv", noop
assert noop["object"] == "f2"
for w in (noop["old"], noop["new"]):
    assert w == {"word": "0x2005", "errno": "EIO", "errno_value": 5, "seen": False,
                 "counter": 1}, w
adv = race["model"]["trace"][0]["new"]
assert adv == {"word": "0x3005", "errno": "EIO", "errno_value": 5, "seen": True,
               "counter": 1}, adv
cut = div["scn.par-syncfs"]
assert cut["kind"] == "incomplete" and cut["attributed_to"] is None, cut
assert cut["op"] == 54 and cut["op_text"] == "par fsync d0 ; fsync d1", cut
assert cut["model"] is None and cut["observed"] is None, cut
gone = [d for d in j["divergences"] if d["script"] == "scn.unlink" and d["kernel"] == "patched"][0]
assert gone["kind"] == "missing" and gone["op"] is None, gone
assert gone["text"] == "no results from the guest", gone
nt = {d["kind"]: d for d in j["divergences"] if d["kernel"] == "patched-0014"}
assert nt["no trace"]["script"] == "scn.par-syncfs" and nt["no trace"]["attributed_to"] is None, nt
assert nt["setup"]["script"] == "scn.enospc" and nt["setup"]["attributed_to"] is None, nt
assert nt["setup"]["text"] == "mount of /dev/mapper/dt0 failed: Input/output error", nt
# not run is not divergent, and never attributed: the one divergence is the race, which
# no switch explains
rows = {(r["kernel"], r["fs"]): r for r in j["rows"]}
got = {k: (r["divergent"], r["attributed"], r["unexplained"], r["not_run"]) for k, r in rows.items()}
assert got == {("patched", "ext4-journal"): (1, 0, 1, 0), ("patched", "ext2"): (0, 0, 0, 11),
               ("patched-0014", "ext2"): (0, 0, 0, 2)}, got
assert len(j["divergences"]) == 14
assert j["campaign"]["verdict"] == "failed" and j["campaign"]["failures"] is None, j["campaign"]
print("decode: 0x2005 EIO unseen counter 1, 0x3005 EIO seen counter 1; "
      "1 incomplete, 10 missing, 1 without trace, 1 not set up said, none attributed")
EOF
	cat "$t/out"
	;;
errors)
	campaign "$t/c"
	run 2 "$t/none"
	has err "^difftest report: no $t/none/campaign\\.info \\(not a finished campaign --out directory\\)\$"
	cp -r "$t/c" "$t/bad"
	printf 'stock\text2\tstock\tx\t1\t1\t0\n' >>"$t/bad/rows.tsv"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/rows\\.tsv:[0-9]+: want 10 tab-separated fields"
	# (a campaign's rows before the scripts not run had a column of their own)
	cut -f1-9 "$t/c/rows.tsv" >"$t/bad/rows.tsv"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/rows\\.tsv:1: want 10 tab-separated fields"
	cp "$t/c/rows.tsv" "$t/bad/rows.tsv"
	sed -i '1s/\t[0-9]*$/\t-1/' "$t/bad/rows.tsv"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/rows\\.tsv:1: field 10 '-1': want a whole number\$"
	cp "$t/c/rows.tsv" "$t/bad/rows.tsv"
	sed -i '1s/\t[0-9]*\t/\tmany\t/' "$t/bad/rows.tsv"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/rows\\.tsv:1: field 5 'many': want a whole number\$"
	cp "$t/c/rows.tsv" "$t/bad/rows.tsv"
	echo 'stock ext2 3' >>"$t/bad/speed.tsv"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/speed\\.tsv:5: want kernel, mode, ops, guest seconds"
	cp "$t/c/speed.tsv" "$t/bad/speed.tsv"
	sed -i '$d' "$t/bad/compare-stock-patched-ext2.txt"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/compare-stock-patched-ext2\\.txt: no summary line at its end"
	cp "$t/c/compare-stock-patched-ext2.txt" "$t/bad/"
	# judge outputs: a line that is not judge's, one cut short, a summary that does not
	# add up or names another kernel
	j=judge-stock-ext4-ordered.txt
	sed -i '2i JUDGE scn.meta op nine' "$t/bad/$j"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/$j:2: not a line of difftest judge's \\(JUDGE, UNJUDGED, KNOWN, UNEXPLAINED, its summary last\\): JUDGE scn\\.meta op nine\$"
	cp "$t/c/$j" "$t/bad/"
	sed -i '$d' "$t/bad/$j"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/$j: no summary line at its end \\(judged N script\\(s\\) on KERNEL, FS: \\.\\.\\.\\): judge did not finish\$"
	cp "$t/c/$j" "$t/bad/"
	# (the first UNEXPLAINED line gone: a breaking script neither known nor unexplained)
	sed -i '0,/^UNEXPLAINED /{/^UNEXPLAINED /d}' "$t/bad/$j"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/$j: its lines do not add up to its summary \\(5 breaking, 2 known, 2 unexplained, 0 not judged\\)\$"
	cp "$t/c/$j" "$t/bad/"
	cp "$t/c/$j" "$t/bad/judge-patched-ext4-ordered.txt"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/judge-patched-ext4-ordered\\.txt: its summary names stock, ext4-ordered \\(a file of theirs is $j\\)\$"
	cp "$t/c/judge-patched-ext4-ordered.txt" "$t/bad/"
	grep -v '^line=' "$t/c/campaign.info" >"$t/bad/campaign.info"
	run 2 "$t/bad"
	has err "^difftest report: $t/bad/campaign\\.info: no line= "
	# why it failed: WHAT:KERNEL[:FS], a WHAT lib.sh's dt_fail says
	for w in broke:patched:ext2 broke-contract:patched guest-failed:stock:ext2 not-run: diverged; do
		sed "s/^failures=.*/failures=not-run:stock:ext2 $w/" "$t/c/campaign.info" >"$t/bad/campaign.info"
		run 2 "$t/bad"
		has err "^difftest report: $t/bad/campaign\\.info: failures=: '$w' is not WHAT:KERNEL:FS \\(WHAT: diverged, not-run, broke-contract, not-judged\\) or WHAT:KERNEL \\(no-divergence, guest-failed\\)\$"
	done
	# shards: of one campaign, each once, all of them; the merge in a directory of its own
	campaign "$t/s1" 1 2
	campaign "$t/s2" 2 2
	run 2 "$t/s1"x "$t/s2"
	has err "^difftest report: no $t/s1x/campaign\\.info"
	run 2 -M "$t/m" "$t/s1"
	has err "^difftest report: $t/s1/campaign\\.info says 2 shard\\(s\\), 1 director\\(ies\\) given\$"
	run 2 "$t/s1" "$t/s1/"
	has err "^difftest report: shard 1/2 given twice \\($t/s1, $t/s1\\)\$"
	sed -i 's/^seed=1$/seed=7/' "$t/s2/campaign.info"
	run 2 "$t/s1" "$t/s2"
	has err "^difftest report: $t/s2 and $t/s1 differ in seed \\(7 / 1\\): not shards of one campaign\$"
	sed -i 's/^seed=7$/seed=1/; s/^source=.*/source=linux-source-6.12 6.12.119-1/' "$t/s2/campaign.info"
	run 2 "$t/s1" "$t/s2"
	has err "differ in source \\(linux-source-6\\.12 6\\.12\\.119-1 / linux-source-6\\.12 6\\.12\\.118-1~deb12u1\\)"
	cp "$t/s1/campaign.info" "$t/s2/campaign.info"
	sed -i 's/^shard=1$/shard=2/' "$t/s2/campaign.info"
	cp "$t/s2/rows.tsv" "$t/rows.keep"
	run 2 -M "$t/s2" "$t/s1" "$t/s2"
	has err "^difftest report: $t/s2 is one of the shards: the merge goes into a directory of its own\$"
	cmp -s "$t/rows.keep" "$t/s2/rows.tsv" || fail "a refused merge wrote into a shard"
	# usage
	run 2 -j "$t/x.json"
	has err '^difftest report: no DIR given$'
	run 2 -g "$here/../chart.gp" "$t/c"
	has err '^difftest report: -g \(--chart\) draws the chart next to the Markdown report: it needs -m'
	;;
*)
	echo "report.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
echo "$case_: PASS"
