#!/bin/sh
# difftest's command inside the guest (vm/guest/init runs it as /etc/liberrseq/cmd):
# load the injection module, run /dt/run.list ("FS DEV BATCH" lines) through dtguest.
# Result lines start with "DT "; the host picks them out of the console log.
echo 1 >/proc/sys/kernel/printk   # ext2/ext4 error reports stay off the console
echo "DT I kernel $(uname -r)"
[ -f /dt/rawtrace ] && export DTGUEST_RAWTRACE=1
# the trace ring buffer's size per CPU in KiB (campaign.sh's DT_TRACE_KB), to test its losses
[ -f /dt/trace_kb ] && export DTGUEST_TRACE_KB="$(cat /dt/trace_kb)"
# drivers a --kernel of your own has as modules (campaign.sh --modules DIR)
if [ -f /dt/mods/order ]; then
	while read -r m; do insmod "/dt/mods/$m" || echo "DT I insmod $m failed"; done </dt/mods/order
fi
insmod /dt/errseq_inject.ko || echo "DT I insmod errseq_inject.ko failed"
while read -r fs dev batch; do
	[ -n "$fs" ] || continue
	# guest seconds per batch, for the report's ops/s (uptime: seconds since boot)
	echo "DT I time $fs start $(cut -d' ' -f1 /proc/uptime)"
	/dt/dtguest --fs "$fs" --dev "$dev" "/dt/$batch" 2>&1
	echo "DT I time $fs end $(cut -d' ' -f1 /proc/uptime)"
done </dt/run.list
[ -f /dt/dmesg ] && dmesg | tail -n 60 | sed 's/^/DT I dmesg-tail: /'
# splats, with their timestamps, back on the console for vm/run.sh to see (printk is quiet)
dmesg | grep -E 'BUG:|WARNING:|possible (circular|recursive) locking|Oops|inconsistent lock state' | head -20
echo "DT DONE"
exit 0
