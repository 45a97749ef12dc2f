# Sourced by the project's shell scripts.
# shellcheck shell=bash
LIBERRSEQ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${LIBERRSEQ_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/liberrseq}"
export LIBERRSEQ_ROOT LIBERRSEQ_CACHE

die() { echo "error: $*" >&2; exit 1; }
log() { echo "==> $*" >&2; }
