#!/bin/bash
# args[] of sonde dtrace's proc and sched probes, as DTrace gives them:
# proc:::exec's path, exec-failure's errno, exit's reason (CLD_EXITED,
# CLD_KILLED), create's psinfo_t of the child, signal-send's lwpsinfo_t
# and psinfo_t of the target and the signal; sched:::off-cpu's and
# wakeup's lwpsinfo_t and psinfo_t (translated from the tasks the raw
# tracepoints give).
. "$SONDE_ROOT/tests/usdt/lib.sh"
cat > kids.sh <<'SH'
#!/bin/sh
/bin/true
/nonexistent/x 2>/dev/null
sleep 5 &
kill -9 $!
wait
exit 0
SH
chmod +x kids.sh
out=$(timeout 30 "$SONDE" dtrace -q -c ./kids.sh -n '
proc:::exec /ppid == $target/ { printf("exec %s\n", args[0]); }
proc:::exec-failure /ppid == $target && args[0] != 0/ { printf("exec-failure %d\n", args[0]); }
proc:::create /pid == $target/ {
	printf("create %d %d\n", args[0]->pr_ppid == $target, args[0]->pr_pid != $target);
}
proc:::signal-send /pid == $target && args[2] == 9/ {
	printf("signal %d %d %d\n", args[2], args[1]->pr_ppid == $target,
	    args[0]->pr_lwpid == args[1]->pr_pid);
}
proc:::exit /ppid == $target/ { printf("exit %d\n", args[0]); }' 2>&1 | grep -v '^$' | sort)
same "proc args" "create 1 1
create 1 1
create 1 1
exec /bin/true
exec /nonexistent/x
exec-failure 2
exit 1
exit 1
exit 2
signal 9 1 1" "$out"

out=$(timeout 30 "$SONDE" dtrace -q -c '/bin/sleep 0.2' -n '
sched:::off-cpu /pid == $target/ { printf("off-cpu %d\n", args[0]->pr_lwpid != tid); }
sched:::wakeup /args[1]->pr_pid == $target/ {
	printf("wakeup %d\n", args[0]->pr_lwpid == $target);
}' 2>&1 | grep -v '^$' | sort -u)
same "sched args" "off-cpu 1
wakeup 1" "$out"
exit 0
