#!/bin/bash
# Compare the machine code of liberrseq's errseq_set/sample/check (both
# widths) with the kernel's lib/errseq.c built with the same flags.
# usage: same_code.sh liberrseq.a kernel32.a kernel64.a
set -eu
lib=$1 k32=$2 k64=$3
body() {	# body ARCHIVE FUNCTION: instructions, addresses and names stripped
	objdump -d --no-show-raw-insn "$1" |
		awk -v f="<$2>:" '$2 == f { p = 1; next } p && /^$/ { exit } p' |
		sed -e 's/^ *[0-9a-f]*:\t//' -e 's/<[^>]*>//' -e 's/[[:space:]]*$//' |
		# cmp of two registers before je/jne: operand order does not matter
		awk '$1 == "cmp" && $2 ~ /^%[a-z0-9]+,%[a-z0-9]+$/ {
			split($2, r, ","); if (r[1] > r[2]) $2 = r[2] "," r[1] } { $1 = $1; print }'
}
fail=0
for fn in errseq_set errseq_sample errseq_check; do
	for w in "" 64; do
		k=$k32; [ -n "$w" ] && k=$k64
		a=$(body "$lib" "$fn$w") b=$(body "$k" "kernel_$fn$w")
		[ -n "$a" ] && [ -n "$b" ] || { echo "FAIL: $fn$w: no code found"; fail=1; continue; }
		if [ "$a" = "$b" ]; then
			echo "same: $fn$w ($(echo "$a" | wc -l) instructions)"
		else
			echo "DIFFERENT: $fn$w"; diff <(echo "$a") <(echo "$b") || true
			fail=1
		fi
	done
done
exit $fail
