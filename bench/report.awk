# Turn errseq_bench's CSV (plus run.sh's instruction counts) into Markdown
# tables (mode=md), the data files for plot.gp (mode=dat) or the short
# headline summary (mode=summary).
# usage: awk -F, -v mode=md|summary|dat [-v meta=FILE] [-v dir=DIR] -f report.awk results.csv
BEGIN {
	nops = split("record0 set_unseen set_seen set_changed check_same fast_same check_changed fast_changed cna_same cna_changed report_same_call report_same", ops, " ")
	desc["record0"] = "set(0): `errseq_record(e, 0)`"
	desc["set_unseen"] = "set, same error already there, unseen"
	desc["set_seen"] = "set after SEEN (counter bump)"
	desc["set_changed"] = "set, other errno, unseen (no bump)"
	desc["check_same"] = "check, no change: `errseq_check()`"
	desc["check_changed"] = "check after a change: `errseq_check()`"
	desc["fast_same"] = "inline check, no change: `errseq_check_fast()`"
	desc["fast_changed"] = "inline check after a change: `errseq_check_fast()`"
	desc["report_same_call"] = "cursor report, no change, 1.0's path (calls `errseq_check()`)"
	desc["cna_same"] = "check_and_advance, no change"
	desc["cna_changed"] = "check_and_advance after a change"
	desc["report_same"] = "cursor report, no change (inline compare)"
	nimpl = split("liberrseq kernel liberrseq64 kernel64 mutex flags", impls, " ")
	nmodes = split("idle same alternating", modes, " ")
}
NR == 1 { next }
$1 == "single" { ns[$2, $3] = $7; nsmin[$2, $3] = $8; nsmax[$2, $3] = $9; wr[$2, $3] = $11; runs = $10 }
$1 == "icount" { ir[$2, $3] = $7; have_ir = 1 }
$1 == "scaling" {
	sc[$2, $5] = $7
	if (!($5 in seen_t)) { seen_t[$5] = 1; thr[++nthr] = $5 }
	truns = $10
}
$1 == "interference" && $3 == "check_changed" { rd[$2, $4] = $7; nreaders = $5; truns = $10 }
$1 == "interference" && $3 == "corun_share" { share[$2, $4] = $7 }
$1 == "interference" && $3 == "check_changed_cpu" { rdc[$2, $4] = $7 }
$1 == "interference" && $3 == "writer" { wrr[$2, $4] = $7 }

function r(a, b) { return (b > 0) ? sprintf("%.2f", a / b) : "n/a" }
function f(x) { return (x == "") ? "n/a" : (x + 0 >= 100 ? sprintf("%.0f", x) : (x + 0 >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x))) }
function pct(x) { return (x == "") ? "n/a" : sprintf("%.1f%%", 100 * x) }
function fi(x) { return (x == "") ? "n/a" : sprintf("%.0f", x) }

function versus(a, b, title,   i, op) {
	print "### " title
	print ""
	print "| operation | " a " ns/op | " b " ns/op | ratio | " a " instr/op | " b " instr/op | ratio | writes the word |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
	for (i = 1; i <= nops; i++) {
		op = ops[i]
		print "| " desc[op] " | " f(ns[a, op]) " | " f(ns[b, op]) " | " r(ns[a, op], ns[b, op]) \
		    " | " fi(ir[a, op]) " | " fi(ir[b, op]) " | " r(ir[a, op], ir[b, op]) " | " wr[a, op] " |"
	}
	print ""
}

# The no-change check: the kernel's errseq_check() called out of line, the
# inline compare, the cursor report through each, and the legacy flags' test.
function nochange(   i, op, n, nc) {
	n = split("check_same fast_same report_same_call report_same", nc, " ")
	print "### The no-change check: out of line, inline, and the flags"
	print ""
	print "Instructions at the call site (loop excluded) and ns per operation; the flags' row is " \
	    "`filemap_check_and_keep_errors()` for a check, `filemap_check_errors()` for a report, " \
	    "inline bit tests. Ratios: ÷ the flags' time."
	print ""
	print "| operation | liberrseq instr/op | liberrseq ns/op | ÷ flags | liberrseq64 instr/op | liberrseq64 ns/op | ÷ flags | flags instr/op | flags ns/op |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= n; i++) {
		op = nc[i]
		print "| " desc[op] " | " fi(ir["liberrseq", op]) " | " f(ns["liberrseq", op]) " | " \
		    r(ns["liberrseq", op], ns["flags", op]) " | " fi(ir["liberrseq64", op]) " | " \
		    f(ns["liberrseq64", op]) " | " r(ns["liberrseq64", op], ns["flags", op]) " | " \
		    fi(ir["flags", op]) " | " f(ns["flags", op]) " |"
	}
	print ""
}

function md(   i, j, op, m, line) {
	if (meta != "") {
		while ((getline line < meta) > 0)
			print line
		print ""
	}
	print "## Single thread"
	print ""
	print "Median of " runs " timed runs (ns per operation, loop included: the empty loop is " \
	    f(ns["liberrseq", "empty"]) " ns); instructions per operation from callgrind, empty loop " \
	    "subtracted, call site included. Ratio: liberrseq ÷ kernel (1.00 = same)."
	print "\"writes the word\": the operation run with the word's page read-only (a store or any " \
	    "locked instruction, even a failing cmpxchg, faults)."
	print ""
	versus("liberrseq", "kernel", "errseq_t: liberrseq vs the kernel's own lib/errseq.c")
	versus("liberrseq64", "kernel64", "errseq64_t: liberrseq vs the kernel's lib/errseq.c built over a u64")
	print "### liberrseq vs a mutex and the legacy flags"
	print ""
	print "| operation | liberrseq ns/op | mutex ns/op | mutex ÷ liberrseq | flags ns/op | liberrseq instr/op | mutex instr/op | flags instr/op | writes: liberrseq / mutex / flags |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
	for (i = 1; i <= nops; i++) {
		op = ops[i]
		print "| " desc[op] " | " f(ns["liberrseq", op]) " | " f(ns["mutex", op]) " | " \
		    r(ns["mutex", op], ns["liberrseq", op]) " | " f(ns["flags", op]) " | " \
		    fi(ir["liberrseq", op]) " | " fi(ir["mutex", op]) " | " fi(ir["flags", op]) " | " \
		    wr["liberrseq", op] " / " wr["mutex", op] " / " wr["flags", op] " |"
	}
	print ""
	nochange()
	print "## Threads"
	print ""
	print "### Readers reporting on one word, a writer setting a new error every 100 us"
	print ""
	print "Each reader has its own cursor (`errseq_cursor_report()`; kernel: the same wrapper over its " \
	    "functions; mutex: check_and_advance under the lock; flags: `filemap_check_errors()`). " \
	    "Million reports per second per reader, median of " truns " runs."
	print ""
	line = "| readers |"
	for (j = 1; j <= nimpl; j++) line = line " " impls[j] " |"
	print line
	line = "| ---: |"
	for (j = 1; j <= nimpl; j++) line = line " ---: |"
	print line
	for (i = 1; i <= nthr; i++) {
		line = "| " thr[i] " |"
		for (j = 1; j <= nimpl; j++) line = line " " f(sc[impls[j], thr[i]]) " |"
		print line
	}
	print ""
	print "### Checkers while a writer repeats an unseen error"
	print ""
	print nreaders " reader(s) pinned, each checking a word that holds an error set after its sample " \
	    "(`errseq_check()`: returns the error, writes nothing; mutex: the same under the lock; flags: " \
	    "`filemap_check_and_keep_errors()`); a writer pinned on another CPU spins on its own data " \
	    "(idle), sets the same error again and again (same), or alternates EIO/ENOSPC " \
	    "(alternating: every set writes). Million checks per second per reader while the writer " \
	    "was running (the writer beats a heartbeat; see errseq_bench.c), median of " truns " runs; " \
	    "\"co-running\" is the share of the readers' time that was; the last two columns are " \
	    "the same ratios over all of the readers' CPU time (diluted by the time the writer was " \
	    "not running)."
	print ""
	print "| implementation | idle | same | alternating | same ÷ idle | alternating ÷ idle | co-running (idle / same / alt.) | CPU time: same ÷ idle | CPU time: alt. ÷ idle |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for (j = 1; j <= nimpl; j++) {
		m = impls[j]
		print "| " m " | " f(rd[m, "idle"]) " | " f(rd[m, "same"]) " | " f(rd[m, "alternating"]) " | " \
		    r(rd[m, "same"], rd[m, "idle"]) " | " r(rd[m, "alternating"], rd[m, "idle"]) " | " \
		    pct(share[m, "idle"]) " / " pct(share[m, "same"]) " / " pct(share[m, "alternating"]) " | " \
		    r(rdc[m, "same"], rdc[m, "idle"]) " | " r(rdc[m, "alternating"], rdc[m, "idle"]) " |"
	}
	print ""
}

# Headline: the worst liberrseq/kernel ratio, and the speed-ups over the mutex.
function summary(   i, op, w, wop, wi, wiop, x, a, b) {
	for (a = 0; a <= 1; a++) {
		w = 0; wi = 0
		x = a ? "64" : ""
		line = ""
		for (i = 1; i <= nops; i++) {
			op = ops[i]
			if (ns["kernel" x, op] > 0 && ns["liberrseq" x, op] / ns["kernel" x, op] > w) {
				w = ns["liberrseq" x, op] / ns["kernel" x, op]; wop = op
			}
			if (ir["kernel" x, op] > 0 && ir["liberrseq" x, op] / ir["kernel" x, op] > wi) {
				wi = ir["liberrseq" x, op] / ir["kernel" x, op]; wiop = op
			}
			line = line sprintf(" %s %s", op, r(ns["liberrseq" x, op], ns["kernel" x, op]))
		}
		printf "liberrseq%s / kernel%s, ns:%s\n", x, x, line
		printf "  worst: %.2fx on %s (time); %s\n", w, wop, \
		    have_ir ? sprintf("%.2fx on %s (instructions)", wi, wiop) : "no instruction counts"
	}
	printf "check, no change: liberrseq %s ns, %s instr; mutex %s ns, %s instr: mutex/liberrseq %sx\n", \
	    f(ns["liberrseq", "check_same"]), fi(ir["liberrseq", "check_same"]), \
	    f(ns["mutex", "check_same"]), fi(ir["mutex", "check_same"]), \
	    r(ns["mutex", "check_same"], ns["liberrseq", "check_same"])
	for (a = 0; a <= 1; a++) {
		x = a ? "64" : ""
		printf "no change, liberrseq%s (instr, ns, / flags): errseq_check() %s, %s ns; errseq_check_fast() %s, %s ns, %sx; cursor report, 1.0 path %s, %s ns, %sx; now %s, %s ns, %sx\n", x, \
		    fi(ir["liberrseq" x, "check_same"]), f(ns["liberrseq" x, "check_same"]), \
		    fi(ir["liberrseq" x, "fast_same"]), f(ns["liberrseq" x, "fast_same"]), \
		    r(ns["liberrseq" x, "fast_same"], ns["flags", "fast_same"]), \
		    fi(ir["liberrseq" x, "report_same_call"]), f(ns["liberrseq" x, "report_same_call"]), \
		    r(ns["liberrseq" x, "report_same_call"], ns["flags", "report_same_call"]), \
		    fi(ir["liberrseq" x, "report_same"]), f(ns["liberrseq" x, "report_same"]), \
		    r(ns["liberrseq" x, "report_same"], ns["flags", "report_same"])
	}
	printf "cursor report, no change: liberrseq %s ns; mutex %s ns: mutex/liberrseq %sx\n", \
	    f(ns["liberrseq", "report_same"]), f(ns["mutex", "report_same"]), \
	    r(ns["mutex", "report_same"], ns["liberrseq", "report_same"])
	printf "set of an unseen error again: writes the word: liberrseq %s, kernel %s, mutex %s, flags %s\n", \
	    wr["liberrseq", "set_unseen"], wr["kernel", "set_unseen"], wr["mutex", "set_unseen"], wr["flags", "set_unseen"]
	printf "checkers vs writer (reader rate / idle writer): same unseen error: liberrseq %s kernel %s mutex %s flags %s; alternating: liberrseq %s kernel %s mutex %s flags %s\n", \
	    r(rd["liberrseq", "same"], rd["liberrseq", "idle"]), r(rd["kernel", "same"], rd["kernel", "idle"]), \
	    r(rd["mutex", "same"], rd["mutex", "idle"]), r(rd["flags", "same"], rd["flags", "idle"]), \
	    r(rd["liberrseq", "alternating"], rd["liberrseq", "idle"]), r(rd["kernel", "alternating"], rd["kernel", "idle"]), \
	    r(rd["mutex", "alternating"], rd["mutex", "idle"]), r(rd["flags", "alternating"], rd["flags", "idle"])
	line = ""
	for (i = 1; i <= nthr; i++)
		line = line sprintf(" %s: %s vs %s (%sx)", thr[i], f(sc["liberrseq", thr[i]]), \
		    f(sc["mutex", thr[i]]), r(sc["liberrseq", thr[i]], sc["mutex", thr[i]]))
	printf "reports/s per reader (M), liberrseq vs mutex, by readers:%s\n", line
}

# For gnuplot: scaling.dat (readers, one column per implementation) and
# interference.dat (implementation, reader rate with the writer repeating the
# same unseen error and alternating errors, each over the rate with it idle).
function dat(   i, j, line) {
	line = "readers"
	for (j = 1; j <= nimpl; j++) line = line " " impls[j]
	print line > (dir "/scaling.dat")
	for (i = 1; i <= nthr; i++) {
		line = thr[i]
		for (j = 1; j <= nimpl; j++) line = line " " (sc[impls[j], thr[i]] == "" ? "NaN" : sc[impls[j], thr[i]])
		print line > (dir "/scaling.dat")
	}
	print "impl same/idle alternating/idle" > (dir "/interference.dat")
	for (j = 1; j <= nimpl; j++)
		print impls[j], r(rd[impls[j], "same"], rd[impls[j], "idle"]), \
		    r(rd[impls[j], "alternating"], rd[impls[j], "idle"]) > (dir "/interference.dat")
}

END {
	if (mode == "md") md()
	else if (mode == "summary") summary()
	else if (mode == "dat") dat()
}
