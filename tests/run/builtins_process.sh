#!/bin/bash
# pid, tid, uid, gid, comm, cgroup, ncpus, cpu and numaid in BEGIN describe
# the sonde process itself (BEGIN runs in sonde's own context).
set -u
out=$(bash -c 'echo $$; exec "$SONDE" -q -e "BEGIN {
	printf(\"%d %d %d %d %s %d %d %d %d\n\", pid, tid, uid, gid, comm,
	       cgroup, ncpus, cpu < ncpus, numaid);
	exit();
}"') || { echo "sonde failed"; exit 1; }
read -r shpid spid stid suid sgid scomm scg sncpus scpuok snuma <<< "$(echo "$out" | tr '\n' ' ')"
fail=0
check() { # what expected actual
	if [[ $2 != "$3" ]]; then echo "$1: expected $2, got $3"; fail=1; fi
}
check pid "$shpid" "$spid"
check tid "$shpid" "$stid"
check uid "$(id -u)" "$suid"
check gid "$(id -g)" "$sgid"
check comm sonde "$scomm"
check ncpus "$(nproc --all)" "$sncpus"
check "cpu < ncpus" 1 "$scpuok"
# numaid: the node of some online CPU; 0 on a single-node machine.
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if (( nodes <= 1 )); then check numaid 0 "$snuma"; fi
# cgroup: the inode number of the process's cgroup v2 directory.
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cgpath=$(sed -n 's/^0:://p' /proc/self/cgroup)
if [[ -n $mnt && -d $mnt$cgpath ]]; then
	check cgroup "$(stat -c %i "$mnt$cgpath")" "$scg"
fi
exit $fail
