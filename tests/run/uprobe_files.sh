#!/bin/bash
# The file part of uprobe and usdt specs as bpftrace 0.17 takes it:
# a wildcard (every ELF file it matches), empty with -p (the process's
# executable and every library it has mapped), a path under
# /proc/PID/root for a process in another mount namespace; an empty
# usdt provider is any; probes are named by the path as written.
. "$SONDE_ROOT/tests/usdt/lib.sh"
cat > p.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sonde/sdt.h>
__attribute__((noinline)) long twice(long a) { return a * 2; }
int main(int argc, char **argv)
{
	if (argc > 1 && argv[1][0] == 'w') {	/* wait for SIGUSR1 */
		sigset_t s;
		int sig;

		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		sigprocmask(SIG_BLOCK, &s, NULL);
		fputs("waiting\n", stderr);
		sigwait(&s, &sig);
	}
	SONDE_PROBE(app, mark, twice(21));
	if (argc > 1 && argv[1][0] == 'x')	/* then run the other copy */
		execl("./bin/p2", "p2", (char *)0);
	return 0;
}
C
mkdir bin
build bin/p1 p.c
cp bin/p1 bin/p2
echo "not ELF" > bin/p3

# a wildcard file: both copies, named as the glob found them; the
# text file it also matches is not a candidate
trace "uprobe wildcard file" -c "./bin/p1 x" -e 'uprobe:./bin/p*:twice { printf("%s %d\n", probe, arg0); }
	usdt:./bin/p?::mark { printf("%s %d\n", probe, arg0); }'
same "uprobe and usdt wildcard files" "uprobe:./bin/p1:twice 21
uprobe:./bin/p2:twice 21
usdt:./bin/p1:app:mark 42
usdt:./bin/p2:app:mark 42" "$(sort <<< "$out" | grep .)"

trace "relative path, empty provider" -c ./bin/p1 -e 'usdt:bin/p1::mark { printf("%s\n", probe); }'
same "empty provider" "usdt:bin/p1:app:mark" "$(grep . <<< "$out")"

# -p with an empty file: the executable and its libraries
./bin/p1 w 2> err &
pid=$!
for ((i = 0; i < 100; i++)); do grep -q waiting err && break; sleep 0.05; done
"$SONDE" -q -p "$pid" -e 'uprobe::twice { printf("%s %d\n", probe, arg0); }
	usdt:::mark { printf("%s\n", probe); }
	uprobe::getpid { printf("%s\n", probe); }
	BEGIN { printf("ready\n"); }' > out 2> serr &
tracer=$!
for ((i = 0; i < 200; i++)); do grep -q ready out && break; sleep 0.05; done
kill -USR1 "$pid"
wait "$pid"
wait "$tracer"
exe=$(readlink -f bin/p1)
same "-p with an empty file" "ready
uprobe:$exe:twice 21
usdt:$exe:app:mark" "$(grep . out)"
grep -q 'error\|warning' serr && { echo "FAIL stderr: $(cat serr)"; exit 1; }

# errors: an empty file without -p, a wildcard that matches no ELF file,
# an address in several files
for spec in 'uprobe::twice' 'usdt:::mark'; do
	err=$("$SONDE" -e "$spec { }" 2>&1) && { echo "FAIL $spec ran"; exit 1; }
	[[ $err == *"error[E_PROBE]: "*": the file is missing: name one"*"or give -p PID"* ]] || { echo "FAIL $spec: $err"; exit 1; }
done
err=$("$SONDE" -e 'uprobe:./bin/p3*:twice { }' 2>&1) && { echo "FAIL no-ELF glob ran"; exit 1; }
[[ $err == *"error[E_PROBE]: uprobe: no ELF file matches ./bin/p3*"* ]] || { echo "FAIL no-ELF glob: $err"; exit 1; }
err=$("$SONDE" -e 'uprobe:./bin/p*:0x1000 { }' 2>&1) && { echo "FAIL address ran"; exit 1; }
[[ $err == *"error[E_PROBE]: uprobe: an address needs one file, not the files matching ./bin/p*"* ]] || { echo "FAIL address: $err"; exit 1; }
err=$("$SONDE" -e 'uprobe:./bin/p*:nothing_here { }' 2>&1) && { echo "FAIL missing ran"; exit 1; }
[[ $err == *"error[E_PROBE]: No probes to attach: uprobe: function nothing_here not found in the files matching ./bin/p*"* ]] || { echo "FAIL missing: $err"; exit 1; }

# another mount namespace: the program is at a path only the process
# sees; -p finds it under /proc/PID/root
command -v unshare > /dev/null || { echo "no unshare"; exit 77; }
cp bin/p1 ns-prog
unshare -m sh -c "mount -t tmpfs none /mnt && cp ns-prog /mnt/hidden && exec /mnt/hidden w" 2> err2 &
pid=$!
for ((i = 0; i < 100; i++)); do grep -q waiting err2 && break; sleep 0.05; done
[[ -e /mnt/hidden ]] && { echo "FAIL /mnt/hidden is visible on the host"; exit 1; }
"$SONDE" -q -p "$pid" -e 'uprobe:/mnt/hidden:twice { printf("%s %d\n", probe, arg0); }
	usdt:/mnt/hidden:app:mark { printf("%s %d\n", probe, arg0); }
	BEGIN { printf("ready\n"); }' > out2 2> serr &
tracer=$!
# out2, not out: the shell truncates a file in the child it forks, so
# polling the earlier out could see its old "ready" and signal too soon
for ((i = 0; i < 200; i++)); do grep -q ready out2 && break; sleep 0.05; done
kill -USR1 "$pid"
wait "$pid"
wait "$tracer"
grep -q ready out2 || { echo "FAIL another mount namespace: stderr: $(cat serr)"; exit 1; }
same "another mount namespace" "ready
uprobe:/mnt/hidden:twice 21
usdt:/mnt/hidden:app:mark 42" "$(grep . out2)"
exit 0
