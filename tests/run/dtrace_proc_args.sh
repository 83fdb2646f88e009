#!/bin/bash
# args[] of sonde dtrace's proc and sched probes, as DTrace gives them:
# proc:::exec's path (execve's and execveat's), exec-failure's return
# (-errno; it fires for failures only), exit's reason (CLD_EXITED,
# CLD_KILLED; once per process, lwp-exit per thread), create's psinfo_t
# of the child, signal-send's lwpsinfo_t and psinfo_t of the target and
# the signal, signal-discard's for a signal the process ignores;
# sched:::off-cpu's and wakeup's lwpsinfo_t and psinfo_t (translated
# from the tasks the raw tracepoints give).
. "$SONDE_ROOT/tests/usdt/lib.sh"
cat > kids.sh <<'SH'
#!/bin/sh
/bin/true
/nonexistent/x 2>/dev/null
/bin/sleep 5 &
/bin/sleep 0.3
kill -9 $!
wait
exit 0
SH
chmod +x kids.sh
out=$(timeout 30 "$SONDE" dtrace -q -c ./kids.sh -n '
proc:::exec /ppid == $target/ { printf("exec %s\n", args[0]); }
proc:::exec-failure /ppid == $target/ { printf("exec-failure %d\n", args[0]); }
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
create 1 1
exec /bin/sleep
exec /bin/sleep
exec /bin/true
exec /nonexistent/x
exec-failure -2
exit 1
exit 1
exit 1
exit 2
signal 9 1 1" "$out"

cat > at.c <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
static void *idle(void *a) { return a; }
int main(void)
{
	char *argv[] = { "true", NULL }, *envp[] = { NULL };
	char path[] = "/bin/true";	/* in memory the exec can read */
	pthread_t t;

	signal(SIGUSR2, SIG_IGN);
	raise(SIGUSR2);
	pthread_create(&t, NULL, idle, NULL);
	pthread_join(t, NULL);
	syscall(SYS_execveat, AT_FDCWD, path, argv, envp, 0);
	return 1;
}
C
cc -O1 -pthread -o at at.c || { echo "FAIL cc at.c"; exit 1; }
out=$(timeout 30 "$SONDE" dtrace -q -c ./at -n '
proc:::exec /pid == $target/ { printf("exec %s\n", args[0]); }
proc:::exec-failure /pid == $target/ { printf("exec-failure %d\n", args[0]); }
proc:::signal-discard /args[1]->pr_pid == $target/ { printf("discard %d\n", args[2]); }
proc:::exit /pid == $target/ { printf("exit %d\n", args[0]); }
proc:::lwp-exit /pid == $target/ { @lwp = count(); }
END { printa("lwp-exit %@d\n", @lwp); }' 2>&1 | grep -v '^$')
same "execveat, a discarded signal, a thread's exit" "exec ./at
discard 12
exec /bin/true
exit 1
lwp-exit 2" "$out"

out=$(timeout 30 "$SONDE" dtrace -q -c '/bin/sleep 0.2' -n '
sched:::off-cpu /pid == $target/ { printf("off-cpu %d\n", args[0]->pr_lwpid != tid); }
sched:::wakeup /args[1]->pr_pid == $target/ {
	printf("wakeup %d\n", args[0]->pr_lwpid == $target);
}' 2>&1 | grep -v '^$' | sort -u)
same "sched args" "off-cpu 1
wakeup 1" "$out"
exit 0
