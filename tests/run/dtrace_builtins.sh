#!/bin/bash
# D's built-in variables that sonde computes: errno (a failed syscall's
# error in its return probe, 0 elsewhere), ppid (the parent's process
# id: -c's command is sonde's child), walltimestamp (the wall clock in
# ns), id and epid (the probe's ID, as in the firing line).
. "$SONDE_ROOT/tests/usdt/lib.sh"
out=$("$SONDE" dtrace -qn 'syscall::openat:return /pid == $target && errno != 0/ { printf("errno %d %d\n", errno, arg0); } syscall::exit_group:entry /pid == $target/ { printf("ppid %d %d\n", ppid, errno); }' -c 'cat /nonexistent/sonde-test' 2>/dev/null & echo "sonde $!"; wait)
spid=$(awk '/^sonde/ { print $2 }' <<< "$out")
grep -qx 'errno 2 -2' <<< "$out" || { echo "FAIL errno: $out"; exit 1; }
grep -qx "ppid $spid 0" <<< "$out" || { echo "FAIL ppid (sonde is $spid): $out"; exit 1; }
now=$(date +%s)
out=$("$SONDE" dtrace -qn 'BEGIN { printf("%d %d %d\n", walltimestamp / 1000000000, id > 0, id == epid); exit(0); }')
read -r wall idok same <<< "$out"
(( wall >= now - 5 && wall <= now + 5 )) || { echo "FAIL walltimestamp $wall, date says $now"; exit 1; }
[[ $idok == 1 && $same == 1 ]] || { echo "FAIL id/epid: $out"; exit 1; }
exit 0
