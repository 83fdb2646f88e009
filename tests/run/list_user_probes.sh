#!/bin/bash
# -l for the probes of files, as bpftrace 0.17 lists them: a file's
# functions (uprobe:, uretprobe:) in name order and usdt notes, by path,
# wildcard file, kind wildcard ('*:FILE:*'), and with -p the process's
# executable and libraries (options may follow the pattern); kernel
# types with -l 'struct NAME', -lv their C definitions as bpftrace's.
. "$SONDE_ROOT/tests/usdt/lib.sh"
cat > p.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <sonde/sdt.h>
__attribute__((noinline)) int zeta(int a) { return a + 1; }
__attribute__((noinline)) int alpha(int a) { return a * 2; }
int main(int argc, char **argv)
{
	if (argc > 1) {
		sigset_t s;
		int sig;

		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		sigprocmask(SIG_BLOCK, &s, NULL);
		fputs("waiting\n", stderr);
		sigwait(&s, &sig);
	}
	SONDE_PROBE(app, start, argc);
	SONDE_PROBE(other, stop, argc);
	return alpha(zeta(argc)) == 0;
}
C
mkdir bin
build bin/p1 p.c
cp bin/p1 bin/p2

got=$("$SONDE" -l 'uprobe:./bin/p1:*' | grep -E ':(alpha|zeta|main)$')
same "functions in name order" "uprobe:./bin/p1:alpha
uprobe:./bin/p1:main
uprobe:./bin/p1:zeta" "$got"
same "one function" "uretprobe:./bin/p1:zeta" "$("$SONDE" -l 'uretprobe:./bin/p1:zeta')"
same "wildcard file and function" "uprobe:./bin/p1:alpha
uprobe:./bin/p2:alpha" "$("$SONDE" -l 'uprobe:./bin/p*:alph*')"
same "kinds wildcard" "uprobe:./bin/p1:zeta
uretprobe:./bin/p1:zeta" "$("$SONDE" -l '*:./bin/p1:zet*' | grep -v '^usdt')"
same "usdt" "usdt:./bin/p1:app:start
usdt:./bin/p1:other:stop" "$("$SONDE" -l 'usdt:./bin/p1:*')"
same "usdt, kinds wildcard" "usdt:./bin/p1:app:start
usdt:./bin/p1:other:stop" "$("$SONDE" -l '*:./bin/p1:*' | grep '^usdt')"
same "usdt by provider" "usdt:./bin/p2:other:stop" "$("$SONDE" -l 'usdt:./bin/p2:other:*')"

# -p: the process's files, named as the process names them
./bin/p1 w 2> err &
pid=$!
for ((i = 0; i < 100; i++)); do grep -q waiting err && break; sleep 0.05; done
exe=$(readlink -f bin/p1)
same "-p, usdt" "usdt:$exe:app:start
usdt:$exe:other:stop" "$("$SONDE" -l 'usdt:*' -p "$pid")"
same "-p, usdt by provider" "usdt:$exe:other:stop" "$("$SONDE" -l 'usdt:*:other:*' -p "$pid")"
"$SONDE" -l -p "$pid" > all || { echo "FAIL -l -p"; exit 1; }
grep -qx "uprobe:$exe:alpha" all || { echo "FAIL -l -p lacks alpha: $(head all)"; exit 1; }
grep -qx "usdt:$exe:app:start" all || { echo "FAIL -l -p lacks app:start"; exit 1; }
grep -qE "^uprobe:.*/libc\.so\.6:getpid$" all || { echo "FAIL -l -p lacks libc's getpid"; exit 1; }
kill -USR1 "$pid"
wait "$pid"

# kernel types, as bpftrace 0.17 prints them
same "struct list" "struct list_head" "$("$SONDE" -l 'struct list_hea*')"
same "struct definition" "struct list_head {
	struct list_head *next;
	struct list_head *prev;
};" "$("$SONDE" -lv 'struct list_head')"
if command -v bpftrace > /dev/null; then
	same "task_struct as bpftrace" "$(bpftrace -lv 'struct task_struct' 2>/dev/null)" \
		"$("$SONDE" -lv 'struct task_struct')"
fi

# errors: exit 1 and a message, nothing on stdout
for pat in 'uprobe:./bin/nothing:*' 'uprobe::*' 'usdt:./bin/q*:*'; do
	out=$("$SONDE" -l "$pat" 2> lerr) && { echo "FAIL -l $pat succeeded"; exit 1; }
	[[ -z $out && -s lerr ]] || { echo "FAIL -l $pat: out '$out' err '$(cat lerr)'"; exit 1; }
done
grep -q "the file is missing" <("$SONDE" -l 'uprobe::*' 2>&1) || { echo "FAIL empty file message"; exit 1; }
"$SONDE" -l 'a' 'b' 2> lerr && { echo "FAIL two patterns"; exit 1; }
grep -q "takes one pattern" lerr || { echo "FAIL two patterns: $(cat lerr)"; exit 1; }
exit 0
