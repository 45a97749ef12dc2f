#!/usr/bin/env bash
# Build errseq_bench, run it, count instructions under callgrind, and write
# results.csv, results.md and throughput.png; print the headline ratios.
# usage: bench/run.sh [--quick] [--out DIR]
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
here="$LIBERRSEQ_ROOT/bench"

quick=
out="$LIBERRSEQ_CACHE/bench/results"
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=--quick ;;
	--out) out=${2:?--out needs a directory}; shift ;;
	*) die "usage: $0 [--quick] [--out DIR]" ;;
	esac
	shift
done

"$LIBERRSEQ_ROOT/scripts/deps.sh" bench
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$(build_dir bench/build)
log "building errseq_bench in $build"
cmake -S "$LIBERRSEQ_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DBUILD_TESTING=OFF >"$out/cmake.log" 2>&1 || { cat "$out/cmake.log" >&2; die "cmake failed"; }
cmake --build "$build" --target errseq_bench -j"$(nproc)" >>"$out/cmake.log" 2>&1 ||
	{ tail -40 "$out/cmake.log" >&2; die "build failed"; }
bin="$build/bench/errseq_bench"

log "timing (single thread, then threads)"
"$bin" $quick >"$out/results.csv"

iters=100000
[ -n "$quick" ] && iters=10000
cg=$(mktemp -d)
trap 'rm -rf "$cg"' EXIT
# icount TEST BINARY: callgrind, one dump per loop ("impl/op"); subtract that
# implementation's empty loop; append rows to results.csv.
icount() {
	rm -f "$cg"/cg.*
	valgrind --tool=callgrind --collect-atstart=no --dump-instr=no \
		--callgrind-out-file="$cg/cg.%p" "$2" --icount --iters "$iters" \
		>"$cg/stdout" 2>"$cg/stderr" || { cat "$cg/stderr" >&2; die "callgrind failed"; }
	awk -v N="$iters" -v test="$1" '
	/^desc: Trigger: Client Request: / { name = $5 }
	/^summary:/ { ir[name] = $2; split(name, a, "/"); if (a[2] == "empty") base[a[1]] = $2 }
	END {
		for (n in ir) {
			split(n, a, "/")
			v = (ir[n] - base[a[1]]) / N
			printf "%s,%s,%s,,1,instr_per_op,%.2f,%.2f,%.2f,1,\n", test, a[1], a[2], v, v, v
		}
	}' "$cg"/cg.*.* | sort >>"$out/results.csv"
}
log "counting instructions with callgrind ($iters iterations per loop)"
icount icount "$bin"

cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
flags=$(sed -n 's/^CMAKE_C_FLAGS_RELWITHDEBINFO:[A-Z]*=//p' "$build/CMakeCache.txt")
cpu=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
commit=$(git -C "$LIBERRSEQ_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
load=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "# errseq_bench results"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $cpu, $(nproc) CPUs, Linux $(uname -r), load average $load"
	echo "(before the run); $($cc --version | head -1), $flags for liberrseq, the kernel's"
	echo "lib/errseq.c and the benchmark alike; liberrseq at commit $commit${quick:+; --quick run}."
} >"$out/meta.md"

awk -F, -v mode=md -v meta="$out/meta.md" -f "$here/report.awk" "$out/results.csv" >"$out/results.md"
awk -F, -v mode=dat -v dir="$out" -f "$here/report.awk" "$out/results.csv"
gnuplot -e "dir='$out'; title='errseq\\_bench: $cpu, $(nproc) CPUs, $(date -u +%Y-%m-%d)'" \
	"$here/plot.gp"

echo
echo "== errseq_bench headline ($cpu, $(nproc) CPUs${quick:+, --quick}) =="
awk -F, -v mode=summary -f "$here/report.awk" "$out/results.csv"
echo "results: $out/results.csv $out/results.md $out/throughput.png"
