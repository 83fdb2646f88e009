#!/bin/bash
# cgroup_path(cgroup[, filter]) prints the cgroup's path in each
# hierarchy, "unified:/..." first: a trigger moved into a fresh cgroup
# (a child of one), with filters, in printf, print(), map keys and
# values, compared with bpftrace 0.17 (which fails on a map key: sonde's
# key is checked alone); then sonde's own cgroup in BEGIN.
. "$SONDE_ROOT/tests/lib/trace.sh"
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[[ -n $mnt ]] || { echo "no cgroup2 file system mounted"; exit 77; }
name=sonde-test-cgpath.$$
cg=$mnt/$name
mkdir -p "$cg/sub" || { echo "cannot create a cgroup in $mnt"; exit 77; }
rmcg() { trace_cleanup; rmdir "$cg/sub" "$cg" 2>/dev/null; }
trap rmcg EXIT
unified=$(awk '$3 == "cgroup2" { n++ } END { print n }' /proc/mounts)
((unified == 1)) || { echo "several cgroup2 mounts"; exit 77; }
prog='BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ {
	printf("%s|%s|%s\n", cgroup_path(cgroup), cgroup_path(cgroup, "unif*"),
	       cgroup_path(cgroup, "nothing"));
	print(cgroup_path(cgroup, "unified"));
	@v = cgroup_path(cgroup, "unified");
	@n = count();
}'
for t in sonde bpftrace; do
	[[ $t == bpftrace ]] && ! have_bpftrace && continue
	trigger_start syscalls getppid 2
	echo "$TRIG" > "$cg/sub/cgroup.procs" || die "cannot move $TRIG into $cg/sub"
	if [[ $t == sonde ]]; then
		tracer_start "$SONDE" -e "$prog" "$TRIG"
	else
		tracer_start bpftrace -e "$prog" "$TRIG"
	fi
	trigger_go
	[[ $t == bpftrace ]] && sleep 1	# it does not drain its buffer on SIGINT
	tracer_stop
	cp "$work/out" "$work/$t"
	[[ $t == sonde ]] && stderr_clean
done
line="unified:/$name/sub|unified:/$name/sub|"
expect "Attaching 2 probes...
ready
$line
unified:/$name/sub
$line
unified:/$name/sub


@n: 2
@v: unified:/$name/sub" "$work/sonde"
# bpftrace 0.17 looks the id up among every file of the cgroup v1
# hierarchies too: a file whose inode number happens to equal the id
# (memory:/x/memory.failcnt) is in its answer.  A cgroup is a
# directory: such entries are dropped before comparing.
real_cgroups() {
	local line out entry h p
	while IFS= read -r line; do
		[[ $line =~ ^[a-z0-9_=]+:/ ]] || { echo "$line"; continue; }
		out=
		IFS=, read -ra parts <<< "${line%%|*}"
		for entry in "${parts[@]}"; do
			h=${entry%%:*} p=${entry#*:}
			[[ $h == unified || -d $(dirname "$mnt")/$h$p ]] &&
				out+=${out:+,}$entry
		done
		[[ $line == *'|'* ]] && out+="|${line#*|}"
		echo "$out"
	done
}
if have_bpftrace; then
	real_cgroups < "$work/bpftrace" > "$work/bpftrace.real"
	diff -u "$work/bpftrace.real" "$work/sonde" || die "differs from bpftrace"
fi

# a key, and sonde's own cgroup: the path /proc/self/cgroup names
self=$(sed -n 's/^0:://p' /proc/self/cgroup)
out=$("$SONDE" -q -e 'BEGIN { @[cgroup_path(cgroup, "unified")] = count(); exit(); }')
[[ $out == *"@[unified:$self]: 1" ]] || die "expected @[unified:$self]: 1, got: $out"
