# Sourced by vm/lib.sh and kernel-port/lib.sh: which kernel line the scripts work on.
# LIBERRSEQ_KERNEL (default: the first of KERNEL_LINES in vm/kernel.env) selects it; this sets
# KLINE and the pin of its source (LINUX_SOURCE_PKG, LINUX_SOURCE_VERSION, LINUX_TARBALL).
# shellcheck shell=bash
_kl_vm=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$_kl_vm/kernel.env"
KLINE=${LIBERRSEQ_KERNEL:-${KERNEL_LINES%% *}}
case " $KERNEL_LINES " in
*" $KLINE "*) ;;
*) echo "error: LIBERRSEQ_KERNEL=$KLINE is not a kernel line (have: $KERNEL_LINES)" >&2; exit 1 ;;
esac
export LIBERRSEQ_KERNEL=$KLINE
. "$_kl_vm/kernel-$KLINE.env"
unset _kl_vm
