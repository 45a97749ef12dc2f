# Sourced by the project's shell scripts.
# shellcheck shell=bash
LIBERRSEQ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${LIBERRSEQ_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/liberrseq}"
export LIBERRSEQ_ROOT LIBERRSEQ_CACHE

# The series the patched kernel of kernel line $1 is built with: a directory holding
# `series` (the patches' names, in order), the patches, and optionally `kernel.config`.
# vm/ builds whatever series directory it is given (VM_SERIES); this is the default.
liberrseq_series_dir() { echo "$LIBERRSEQ_ROOT/kernel-port/$1/patches"; }

die() { echo "error: $*" >&2; exit 1; }
log() { echo "==> $*" >&2; }

# A CMake build directory under the cache for this checkout: CMake refuses a
# build directory configured from another source tree, and clones at different
# paths (CI's, a developer's) share one cache, so the path is keyed by the
# checkout's location.
# usage: build_dir NAME   prints $LIBERRSEQ_CACHE/NAME-<8 hex digits>
build_dir() {
	local key
	key=$(printf '%s' "$LIBERRSEQ_ROOT" | sha256sum | cut -c1-8)
	printf '%s/%s-%s\n' "$LIBERRSEQ_CACHE" "$1" "$key"
}
