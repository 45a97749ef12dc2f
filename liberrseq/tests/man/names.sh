#!/usr/bin/env bash
# Every public function has a man page, and every page documents a real one.
#
# usage: names.sh MANROOT FILE...
#   FILE: a version script (*.map: the names under "global:") or a public
#   header (*.h: every errseq* identifier followed by '(' outside comments,
#   which covers the inline functions; the test-only scheduling hooks under
#   #ifdef LIBERRSEQ_SCHED_HOOKS are skipped). MANROOT holds man3/.
#
# A name is documented when MANROOT/man3/NAME.3 exists (a page, or a link
# page '.so man3/FAMILY.3') and the page it resolves to lists NAME in its
# NAME section. Names in NAME sections that no FILE declares fail too, so
# no page documents a function that does not exist. errseq(3) and
# errseq_table(3) are overviews, not functions.
set -uo pipefail
root=$1
shift
declare -A from
for f in "$@"; do
	case $f in
	*.map)
		list=$(sed -n '/global:/,/local:/p' "$f" | sed 's/global://; s/local://' |
			tr -s ' \t;\n' '\n' | grep -E '^[A-Za-z_][A-Za-z0-9_]*$')
		;;
	*.h)
		# Test-only hooks (#ifdef LIBERRSEQ_SCHED_HOOKS, up to its
		# #else or #endif) are not API and have no page.
		list=$(perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g;
			s{^#ifdef LIBERRSEQ_SCHED_HOOKS\n.*?^#(?:else|endif)}{}gms' "$f" |
			grep -oE '\berrseq[A-Za-z0-9_]*[[:space:]]*\(' | tr -d '( \t')
		;;
	*)
		echo "FAIL: $f is neither a .map nor a .h"; exit 1 ;;
	esac
	[ -n "$list" ] || { echo "FAIL: no names found in $f"; exit 1; }
	for n in $list; do
		from[$n]="${from[$n]:+${from[$n]}, }$(basename "$f")"
	done
done

# NAME sections, read once: listed[NAME] is the pages that list NAME.
declare -A listed
while read -r page n; do
	listed[$n]="${listed[$n]:-}$page "
done < <(awk 'FNR == 1 { page = FILENAME; sub(/.*\//, "", page); sub(/\.3$/, "", page) }
	prev ~ /^\.SH NAME/ {
		line = $0; sub(/ \\-.*/, "", line); gsub(/,/, " ", line)
		k = split(line, a, " "); for (i = 1; i <= k; i++) print page, a[i]
	}
	{ prev = $0 }' "$root"/man3/*.3)

fails=0
for n in $(printf '%s\n' "${!from[@]}" | sort); do
	file=$root/man3/$n.3
	if [ ! -f "$file" ]; then
		echo "FAIL: no man page for $n (declared in ${from[$n]}): write" \
			"liberrseq/man/man3/$n.3, or list $n in the NAME section" \
			"of its family's page and add liberrseq/man/man3/$n.3" \
			"holding '.so man3/FAMILY.3'"
		fails=$((fails + 1))
		continue
	fi
	read -r first <"$file"
	page=$n
	[[ $first == .so\ * ]] && { page=${first#.so man3/}; page=${page%.3}; }
	if [[ " ${listed[$n]:-} " != *" $page "* ]]; then
		echo "FAIL: $n: man3/$n.3 leads to man3/$page.3, whose NAME section does not list $n"
		fails=$((fails + 1))
	fi
done
for n in "${!listed[@]}"; do
	case $n in errseq | errseq_table) continue ;; esac
	[ -n "${from[$n]:-}" ] && continue
	echo "FAIL: ${listed[$n]% }(3) lists $n in its NAME section, but no header or version script declares it"
	fails=$((fails + 1))
done
[ "$fails" -eq 0 ] || { echo "$fails problem(s)"; exit 1; }
echo "${#from[@]} public names, each with a man page"
