#!/usr/bin/env bash
# usage: qemu-watchdog.sh silent|boots|timeout
# difftest's qemu runner (difftest/lib.sh: dt_qemu_cmd, dt_qemu_run) with a stand-in
# qemu-system-x86_64 that writes to the console file of its -serial argument:
#   silent   prints nothing and sleeps: killed after VM_BOOT_SILENCE (2) seconds, status
#            124, "HANG" in the error log, long before the 60-second timeout
#   boots    prints "Linux version", stays quiet longer than VM_BOOT_SILENCE, then
#            "DT DONE": not killed, status 0
#   timeout  boots, then sleeps past the 5-second timeout: killed by the timeout (137),
#            not reported as a hang
# No kernel and no guest: nothing boots (VM_ACCEL=tcg, no probe).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case_=${1:?usage: qemu-watchdog.sh silent|boots|timeout}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/bin" "$t/disks"
cat >"$t/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo "QEMU emulator version 0.0.0 (stand-in)"; exit 0; }
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && console=${2#file:}
	shift
done
echo $$ >"$FAKE_DIR/qemu.pid"
: >"$console"
case "$FAKE_GUEST" in
silent) exec sleep 60 ;;
boots) printf 'Linux version 6.1.0 (stand-in)\r\n' >>"$console"; sleep 4
	printf 'DT DONE\r\n' >>"$console" ;;
timeout) printf 'Linux version 6.1.0 (stand-in)\r\n' >>"$console"; exec sleep 60 ;;
esac
exit 0
EOF
chmod +x "$t/bin/qemu-system-x86_64"
export PATH="$t/bin:$PATH" LIBERRSEQ_CACHE=$t/cache FAKE_DIR=$t FAKE_GUEST=$case_
export VM_ACCEL=tcg VM_BOOT_SILENCE=2
# shellcheck source=../lib.sh
. "$here/../lib.sh"
. "$here/../../scripts/tests/cmdcheck.sh"
: >"$t/bzImage" >"$t/initrd"
what=dt_qemu_run
target() {
	dt_qemu_cmd --no-probe "$t/bzImage" "$t/initrd" "$t/disks" "$t/console"
	dt_qemu_run "$t/console" "$t/errlog" "$1"
}
start=$SECONDS
case $case_ in
silent)
	run 124 60
	has errlog '^difftest: accelerator tcg: VM_ACCEL=tcg$'
	has errlog '^difftest: HANG: the guest printed nothing within 2 s under tcg; QEMU killed$'
	[ $((SECONDS - start)) -lt 20 ] || fail "killed after $((SECONDS - start)) s, want about 2"
	# (killed, it may be a zombie for a moment, until init reaps it)
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$(cat "$t/qemu.pid")" 2>/dev/null || break
		sleep 0.5
	done
	! kill -0 "$(cat "$t/qemu.pid")" 2>/dev/null || fail "the stand-in QEMU still runs 5 s after the kill"
	;;
boots)
	run 0 60
	lacks errlog 'HANG'
	grep -q '^DT DONE' "$t/console" || fail "the console has no DT DONE: $(cat "$t/console")"
	;;
timeout)
	run 137 5
	lacks errlog 'HANG'
	[ $((SECONDS - start)) -lt 30 ] || fail "killed after $((SECONDS - start)) s, want about 5"
	;;
*) echo "usage: qemu-watchdog.sh silent|boots|timeout" >&2; exit 2 ;;
esac
echo "PASS: $case_"
