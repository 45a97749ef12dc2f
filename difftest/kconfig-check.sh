#!/usr/bin/env bash
# Check a kernel's .config against what difftest's guest needs (difftest/guest.config).
#
# usage: difftest/kconfig-check.sh [--fragment FILE]... CONFIG
#   CONFIG           the kernel's .config (TREE/.config of campaign.sh --kbuild TREE)
#   --fragment FILE  check against FILE instead (repeatable), e.g. vm/config/base.config:
#                    what every vm/ guest test needs
# Prints each option of the fragment the config lacks, what the config has, and the
# comment above it in the fragment (what needs it):
#   missing: CONFIG_XFS_FS=y (the config: not set) -- xfs mode
# then a summary line. An option wanted =y that the config has as a module (=m) is
# printed as "module: ..." and does not fail the check: the guest must load it first
# (campaign.sh --modules DIR).
# Exit: 0 every option present, 1 some missing, 2 usage error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
	echo "kconfig-check.sh: $*" >&2
	echo "usage: difftest/kconfig-check.sh [--fragment FILE]... CONFIG (--help says more)" >&2
	exit 2
}
frags=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--fragment)
		[ $# -ge 2 ] || usage "--fragment needs a file"
		frags+=("$2")
		shift 2
		;;
	-*) usage "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage "want one CONFIG, got $#"
config=$1
[ -f "$config" ] || usage "$config: no such file"
grep -qE '^(# )?CONFIG_[A-Za-z0-9_]+[= ]' "$config" || usage "$config: not a kernel .config (no CONFIG_ line)"
[ ${#frags[@]} -gt 0 ] || frags=("$here/guest.config")
for f in "${frags[@]}"; do [ -f "$f" ] || usage "--fragment $f: no such file"; done

st=0
for f in "${frags[@]}"; do
	awk -v config="$config" -v frag="$f" '
	# the config: what it sets, and what it says is not set
	FNR == NR {
		if (match($0, /^CONFIG_[A-Za-z0-9_]+=/))
			have[substr($0, 1, RLENGTH - 1)] = substr($0, RLENGTH + 1)
		else if ($0 ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/)
			have[$2] = "is not set"
		next
	}
	# the fragment: a comment block says what needs the options under it
	/^[[:space:]]*$/ { why = ""; opt = 0; next }
	/^#[[:space:]]*CONFIG_[A-Za-z0-9_]+ is not set/ { check($2, "is not set"); next }
	/^#/ {
		c = $0
		sub(/^#[[:space:]]*/, "", c)
		why = (opt || why == "") ? c : why " " c
		opt = 0
		next
	}
	match($0, /^CONFIG_[A-Za-z0-9_]+=/) {
		v = substr($0, RLENGTH + 1)
		sub(/[[:space:]]+$/, "", v)
		check(substr($0, 1, RLENGTH - 1), v)
		next
	}
	{ printf "%s:%d: not a Kconfig line: %s\n", frag, FNR, $0 > "/dev/stderr"; bad = 1 }
	function check(sym, v,   h, line) {
		n++
		opt = 1
		line = (v == "is not set") ? "# " sym " is not set" : sym "=" v
		h = (sym in have) ? have[sym] : "absent"
		if (v == "is not set" ? (h == "absent" || h == "is not set") : (h == v))
			return
		if (v == "y" && h == "m") {
			mods++
			printf "module: %s (the config: =m) -- %s\n", line, why
			return
		}
		miss++
		printf "missing: %s (the config: %s) -- %s\n", line,
			h == "absent" ? "not in it" : h == "is not set" ? "not set" : "=" h, why
	}
	END {
		if (bad)
			exit 2
		if (miss) {
			printf "%s lacks %d of the %d options of %s\n", config, miss, n, frag
			exit 1
		}
		printf "%s: all %d options of %s present", config, n, frag
		if (mods)
			printf ", %d as modules: load them in the guest first (campaign.sh --modules DIR)", mods
		printf "\n"
	}' "$config" "$f" || { r=$?; [ "$st" -eq 2 ] || st=$r; }
done
exit "$st"
