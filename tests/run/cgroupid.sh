#!/bin/bash
# cgroupid("PATH") is resolved when the script compiles, and must equal
# what the cgroup builtin (bpf_get_current_cgroup_id) gives at run time
# for a task in that cgroup: sonde itself in BEGIN (its own cgroup, from
# /proc/self/cgroup), and a trigger moved into a fresh cgroup, the only
# task there, counted by a predicate on cgroupid().
. "$SONDE_ROOT/tests/lib/trace.sh"
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[[ -n $mnt ]] || { echo "no cgroup2 file system mounted"; exit 77; }
self=$mnt$(sed -n 's/^0:://p' /proc/self/cgroup)
[[ -d $self ]] || { echo "own cgroup $self not found"; exit 77; }

out=$("$SONDE" -q -e 'BEGIN {
	printf("%d %d %d\n", cgroup == cgroupid($1), cgroupid($1),
	       cgroupid(str($1)) == cgroupid($1));
	exit();
}' "$self") || die "sonde failed on $self"
[[ $out == "1 $(stat -c %i "$self") 1"* ]] ||
	die "cgroupid($self): expected 1 $(stat -c %i "$self") 1, got: $out"

cg=$mnt/sonde-test-cgroupid.$$
mkdir "$cg" || { echo "cannot create a cgroup in $mnt"; exit 77; }
rmcg() { trace_cleanup; rmdir "$cg" 2>/dev/null; }
trap rmcg EXIT
trigger_start syscalls getppid 4
echo "$TRIG" > "$cg/cgroup.procs" || die "cannot move $TRIG into $cg"
tracer_start "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /cgroup == cgroupid($2)/ {
	@[pid == $1, cgroup] = count();
}' "$TRIG" "$cg"
trigger_go
tracer_stop
expect "Attaching 2 probes...
ready


@[1, $(stat -c %i "$cg")]: 4"
stderr_clean
