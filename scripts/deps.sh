#!/usr/bin/env bash
# Install the Debian packages a group of the project needs, only those missing.
# usage: scripts/deps.sh [--skip GLOB]... GROUP...
#   GROUP names a file scripts/packages/GROUP.txt, or "all"
#   --skip GLOB   leave out the packages matching GLOB (a shell pattern), e.g.
#                 --skip 'linux-source-*' where no kernel is built from Debian's source
set -euo pipefail
. "$(dirname "$0")/lib.sh"
dir="$LIBERRSEQ_ROOT/scripts/packages"
skip=()
while [ $# -gt 0 ] && [ "$1" = --skip ]; do
	[ $# -ge 2 ] || die "--skip needs a pattern"
	skip+=("$2")
	shift 2
done
[ $# -gt 0 ] || die "usage: $0 [--skip GLOB]... GROUP... (groups: $(cd "$dir" && ls | sed 's/\.txt$//' | tr '\n' ' '))"
files=()
for g in "$@"; do
	if [ "$g" = all ]; then files+=("$dir"/*.txt); continue; fi
	[ -f "$dir/$g.txt" ] || die "no package group '$g' (no $dir/$g.txt)"
	files+=("$dir/$g.txt")
done
want=$(sed 's/#.*//' "${files[@]}" | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)
missing=()
for p in $want; do
	for g in "${skip[@]}"; do
		# shellcheck disable=SC2053
		[[ $p == $g ]] && continue 2
	done
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
log "installing Debian packages: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || die "need root to install: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
