#!/usr/bin/env bash
# usage: accel.sh
# vm/lib.sh's vm_accel, the accelerator every guest gets (vm/run.sh, difftest's qemu
# runner), without booting: qemu-system-x86_64 is a stand-in that answers --version and,
# for a probe, prints what the variable FAKE_PROBE says (a kernel that boots, or nothing)
# and counts its probes; VM_KVM_DEV is a file that opens (or none). Each call's
# accelerator, reason, QEMU arguments and verdict file are checked; the first that differs
# prints "FAIL: ..." and the script exits 1. Nothing is written outside a temporary
# directory (LIBERRSEQ_CACHE points there).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/bin"
cat >"$t/bin/qemu-system-x86_64" <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo "QEMU emulator version 0.0.0 (stand-in)"; exit 0; }
echo "\$*" >>"$t/probes"
[ "\$FAKE_PROBE" = boots ] && printf 'Linux version 6.1.0\r\nKernel panic - not syncing: VFS\r\n'
[ "\$FAKE_PROBE" = silent ] && printf 'Booting from ROM...\r\n'
exit 0
EOF
chmod +x "$t/bin/qemu-system-x86_64"
export PATH="$t/bin:$PATH" LIBERRSEQ_CACHE=$t/cache
unset VM_ACCEL VM_ACCEL_PROBE VM_TCG_THREAD
export VM_ACCEL_PROBE_TIMEOUT=5
# shellcheck source=../lib.sh
. "$here/../lib.sh"
: >"$t/bzImage"
: >"$t/kvm"

fail() {
	echo "FAIL: $*"
	echo "--- got: use=${VM_ACCEL_USE:-} why=${VM_ACCEL_WHY:-} args=${VM_ACCEL_ARGS[*]:-}"
	exit 1
}
# want USE ARGS WHY-REGEX: what the last vm_accel set
want() {
	[ "$VM_ACCEL_USE" = "$1" ] || fail "accelerator '$VM_ACCEL_USE', want '$1'"
	[ "${VM_ACCEL_ARGS[*]}" = "$2" ] || fail "arguments '${VM_ACCEL_ARGS[*]}', want '$2'"
	[[ "$VM_ACCEL_WHY" =~ $3 ]] || fail "reason '$VM_ACCEL_WHY' does not match /$3/"
}
probes() { [ -f "$t/probes" ] && wc -l <"$t/probes" || echo 0; }

# forced
VM_ACCEL=tcg vm_accel "$t/bzImage"
want tcg "-accel tcg" '^VM_ACCEL=tcg$'
VM_ACCEL=tcg VM_TCG_THREAD=single vm_accel "$t/bzImage"
want tcg "-accel tcg,thread=single" '^VM_ACCEL=tcg$'
VM_ACCEL=kvm vm_accel "$t/bzImage"
want kvm "-accel kvm -cpu host" '^VM_ACCEL=kvm$'
# no KVM device
VM_KVM_DEV=$t/no-kvm vm_accel "$t/bzImage"
want tcg "-accel tcg" "^$t/no-kvm cannot be opened\$"
[ "$(probes)" = 0 ] || fail "a probe ran without a KVM device"
export VM_KVM_DEV=$t/kvm
verdict=$(vm_accel_verdict)
case "$verdict" in "$LIBERRSEQ_CACHE/vm/accel/"????????????????) ;; *) fail "verdict file $verdict" ;; esac
# --no-probe without a verdict: never boots, says so, writes nothing
vm_accel --no-probe "$t/bzImage"
want unprobed "-accel tcg" "^$t/kvm opens, no verdict for this host boot in .*: the first boot probes KVM"
[ "$(probes)" = 0 ] || fail "--no-probe probed"
[ ! -e "$LIBERRSEQ_CACHE" ] || fail "--no-probe wrote to the cache"
# the probe: a kernel that boots under KVM gives KVM, kept for the next call
FAKE_PROBE=boots vm_accel "$t/bzImage"
want kvm "-accel kvm -cpu host" '^the kernel booted under KVM \(bzImage, '
[ "$(probes)" = 1 ] || fail "$(probes) probes, want 1"
grep -q -- '-accel kvm -cpu host -M pc .*-kernel '"$t/bzImage" "$t/probes" || fail "probe command: $(cat "$t/probes")"
grep -q '^kvm the kernel booted under KVM' "$verdict" || fail "verdict: $(cat "$verdict")"
FAKE_PROBE=silent vm_accel "$t/bzImage"
want kvm "-accel kvm -cpu host" '^the kernel booted under KVM'
[ "$(probes)" = 1 ] || fail "probed again with a verdict kept"
VM_TCG_THREAD=multi vm_accel --no-probe "$t/bzImage"
want kvm "-accel kvm -cpu host" '^the kernel booted under KVM'
# VM_ACCEL_PROBE=again: a kernel that prints nothing under KVM gives TCG, and why
FAKE_PROBE=silent VM_ACCEL_PROBE=again VM_TCG_THREAD=single vm_accel "$t/bzImage"
want tcg "-accel tcg,thread=single" '^a probe boot under KVM printed 1 lines in 5 s, the last: Booting from ROM\.\.\. \('
[ "$(probes)" = 2 ] || fail "$(probes) probes, want 2"
# a faked verdict file is read as it is (what difftest's tests use)
echo "kvm the kernel booted under KVM (faked)" >"$verdict"
vm_accel --no-probe "$t/bzImage"
want kvm "-accel kvm -cpu host" '^the kernel booted under KVM \(faked\)$'
echo "OK: vm_accel"
