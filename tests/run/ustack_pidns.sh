#!/bin/bash
# sonde itself in a new pid namespace (unshare --pid --mount-proc, as in
# a container), tracing a process of that namespace: BPF gives user
# stacks and usym() the process as sonde's namespace numbers it (its
# /proc, and the kernel's mapping records, use those numbers), so the
# frames print with their names; bpftrace's pid_namespace.ustack_inside.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog deepstack
command -v unshare > /dev/null || { echo "no unshare"; exit 77; }
out=$(timeout 60 unshare --fork --pid --mount-proc bash -c "
	'$PROGS/deepstack' 100000000 & p=\$!
	'$SONDE' -q -e 'uprobe:$PROGS/deepstack:leaf { print(ustack(3)); @[usym(reg(\"ip\"))] = count(); exit(); }'
	rc=\$?
	kill \$p
	exit \$rc" 2>&1) || die "sonde in the namespace: $out"
got=$(sed -nE 's/^ +([a-z0-9_]+)\+[0-9]+$/\1/p' <<< "$out" | tr '\n' ' ')
[[ $got == "leaf d0 d1 " ]] || die "frames: $out"
grep -qE '^@\[leaf\]: [0-9]+$' <<< "$out" || die "usym: $out"
echo ok
