# Sourced by difftest/ scripts: build the guest pieces and boot one QEMU run.
# shellcheck shell=bash
DT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$DT_DIR/../scripts/lib.sh"
DT_CACHE=$LIBERRSEQ_CACHE/difftest

# dt_kernel_paths FLAVOUR -> sets DT_BZIMAGE DT_KBUILD (from vm/'s layout)
dt_kernel_paths() {
	# shellcheck source=/dev/null
	. "$DT_DIR/../vm/lib.sh"
	DT_BZIMAGE=$(vm_bzimage "$1")
	DT_KBUILD=$(vm_build_dir "$1")
}

# dt_build_kmod KBUILD OUTDIR: errseq_inject.ko against that kernel tree
dt_build_kmod() {
	"$DT_DIR/kmod/build.sh" "$1" "$2" >/dev/null
}

# dt_make_disks DIR: fresh ext2 and ext4 images (mkfs on image files only;
# nothing is mounted on the host)
dt_make_disks() {
	local d=$1
	mkdir -p "$d"
	rm -f "$d/ext2.img" "$d/ext4.img"
	truncate -s 64M "$d/ext2.img" "$d/ext4.img"
	mkfs.ext2 -q -F -b 4096 "$d/ext2.img" >/dev/null
	mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$d/ext4.img" >/dev/null
}

# dt_boot BZIMAGE STAGEDIR DISKDIR CONSOLELOG TIMEOUT
# Boots through vm/run.sh (TCG, or KVM when there is one) with ext2.img as /dev/vda and
# ext4.img as /dev/vdb, STAGEDIR (dtguest, errseq_inject.ko, run.list, batches) as /dt,
# running guest/run-batches.sh. The guest's result lines ("DT ...") are in CONSOLELOG.
# Returns vm/run.sh's status (121: kernel splat, 122: no status, 123: timeout).
dt_boot() {
	local bz=$1 stage=$2 disks=$3 log=$4 tmo=${5:-2400} rc=0
	cp "$DT_DIR/guest/run-batches.sh" "$stage/cmd"
	: >"$log"
	nice -n 5 "$DT_DIR/../vm/run.sh" --kernel "$bz" --disk "$disks/ext2.img" \
		--disk "$disks/ext4.img" --add "$stage:/dt" --timeout "$tmo" --mem 1024M \
		--log "$log" -q -- sh /dt/cmd >"$log.live" 2>"$log.err" || rc=$?
	if [ $rc -ne 0 ] || ! grep -q '^DT DONE' "$log"; then
		echo "difftest: guest run failed (vm/run.sh status $rc); console log: $log" >&2
		cat "$log.err" >&2
		[ $rc -ne 0 ] || rc=1
	fi
	return $rc
}
