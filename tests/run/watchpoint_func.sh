#!/bin/bash
# watchpoint:FUNC+argN:LEN:MODE and asyncwatchpoint: the address FUNC
# receives is watched from then on.  Proved with a program that hands
# fresh slots to watch_me() and writes to them at once: each write
# arrives, in order, with its value, the slot beside it never; the
# synchronous form stops the process until the breakpoint is set (its
# SIGCONT handler counts one wake-up per call, the async form none);
# an address already watched is not watched twice; past the CPU's 4
# debug registers bpftrace 0.17's warning comes, and unwatch() gives
# them back; wildcards and -p; a function not found.  bpftrace 0.17
# prints the same lines, except that it watches slot 0 twice (one
# event twice, or a third warning).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"; [[ -n ${wpid:-} ]] && kill $wpid 2>/dev/null' EXIT
cd "$dir" || exit 1
cat > w.c <<'C'
/* Calls watch_me(i, p) (or watch_too, alternately with 't') with a new
 * 8-byte slot p for i = 0..N-1, then writes (i+1)*100+k to it i+1
 * times, and once to the slot beside it (never watched); then hands
 * slot 0 to watch_me again (tag 9) and writes 999 to it.  Each write
 * waits DELAY_US first.  At the end it writes to FILE how often
 * SIGCONT woke it.  Options (argv[4]): t, alternate watch_me and
 * watch_too; p, sleep 1 s first. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static volatile sig_atomic_t conts;
static void on_cont(int sig) { (void)sig; conts++; }
__attribute__((noinline)) void watch_me(long tag, volatile long *p) { (void)tag; (void)p; __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void watch_too(long tag, volatile long *p) { (void)tag; (void)p; __asm__ volatile("" ::: "memory"); }
int main(int argc, char **argv)
{
	int n = atoi(argv[1]), delay = atoi(argv[2]);
	int alt = argc > 4 && strchr(argv[4], 't');
	volatile long *v = calloc((size_t)n + 1, 64);
	FILE *f;

	signal(SIGCONT, on_cont);
	if (argc > 4 && strchr(argv[4], 'p'))
		sleep(1);	/* for -p to find it */
	for (int i = 0; i < n; i++) {
		volatile long *p = v + 8 * i;

		if (alt && i % 2)
			watch_too(i, p);
		else
			watch_me(i, p);
		for (int k = 0; k <= i; k++) {
			usleep(delay);
			*p = (i + 1) * 100 + k;
		}
		p[1] = 1;
	}
	watch_me(9, v);
	usleep(delay);
	*v = 999;
	f = fopen(argv[3], "w");
	fprintf(f, "conts %d\n", (int)conts);
	fclose(f);
	return 0;
}
C
cc -O1 -o w w.c || exit 1
fail() { echo "$1: got:"; echo "$2"; echo "want:"; echo "$3"; exit 1; }
P='uprobe:./w:watch_* { @a = arg1; @i = arg0; } END { clear(@a); clear(@i); }'
show='printf("%s %d %d\n", probe, @i, *(int64 *)@a);'

# synchronous: the writes right after the call are seen
out=$("$SONDE" -q -c './w 3 0 conts' -e "$P watchpoint:watch_me+arg1:8:w { $show }" 2>&1)
want=$(printf 'watchpoint:./w:watch_me:1:8:w %s\n' '0 100' '1 200' '1 201' '2 300' '2 301' '2 302' '9 999'; printf '\n\n\n')
[[ "$out" == "$want" ]] || fail sync "$out" "$want"
[[ $(cat conts) == "conts 4" ]] || { echo "sync: $(cat conts), want 4 SIGCONTs"; exit 1; }

# asynchronous: not stopped (writes come 100 ms after the call)
out=$("$SONDE" -q -c './w 3 100000 conts' -e "$P aw:watch_me+arg1:8:w { $show }" 2>&1)
want=$(printf 'asyncwatchpoint:./w:watch_me:1:8:w %s\n' '0 100' '1 200' '1 201' '2 300' '2 301' '2 302' '9 999'; printf '\n\n\n')
[[ "$out" == "$want" ]] || fail async "$out" "$want"
[[ $(cat conts) == "conts 0" ]] || { echo "async: $(cat conts), want no SIGCONT"; exit 1; }

# 6 slots, 4 debug registers: slots 4 and 5 are not watched
out=$("$SONDE" -q -c './w 6 0 conts' -e "$P watchpoint:watch_me+arg1:8:w { printf(\"%d %d\\n\", @i, *(int64 *)@a); }" 2>err)
want=$(printf '%s\n' '0 100' '1 200' '1 201' '2 300' '2 301' '2 302' '3 400' '3 401' '3 402' '3 403' '9 999'; printf '\n\n\n')
[[ "$out" == "$want" ]] || fail registers "$out" "$want"
n=$(grep -c '^sonde: warning: Failed to attach watchpoint probe. You are out of watchpoint registers. (watchpoint:./w:watch_me:1:8:w at 0x[0-9a-f]*)$' err)
[[ $n == 2 && $(wc -l < err) == 2 ]] || { echo "registers: stderr:"; cat err; exit 1; }

# unwatch() at the first write of each slot: no more events from it,
# and its register is free for the next (writes 100 ms apart)
out=$("$SONDE" -q -c './w 6 100000 conts' -e "$P watchpoint:watch_me+arg1:8:w { printf(\"%d %d\\n\", @i, *(int64 *)@a); unwatch(@a); } BEGIN { unwatch(1234); }" 2>&1)
want=$(printf '%s\n' '0 100' '1 200' '2 300' '3 400' '4 500' '5 600' '9 999'; printf '\n\n\n')
[[ "$out" == "$want" ]] || fail unwatch "$out" "$want"
[[ $(cat conts) == "conts 7" ]] || { echo "unwatch: $(cat conts), want 7 SIGCONTs"; exit 1; }

# a wildcard: both functions, each probe named by its own (5 probes:
# two uprobes, two watchpoints' uprobes, END)
out=$("$SONDE" -c './w 3 0 conts t' -e "$P w:watch_*+arg1:8:w { $show }" 2>&1)
want=$(printf 'Attaching 5 probes...\n'; printf 'watchpoint:./w:%s\n' 'watch_me:1:8:w 0 100' 'watch_too:1:8:w 1 200' 'watch_too:1:8:w 1 201' 'watch_me:1:8:w 2 300' 'watch_me:1:8:w 2 301' 'watch_me:1:8:w 2 302' 'watch_me:1:8:w 9 999'; printf '\n\n\n')
[[ "$out" == "$want" ]] || fail wildcard "$out" "$want"

# -p: the process's executable, as /proc/PID/exe
./w 2 0 conts p & wpid=$!
out=$("$SONDE" -q -p $wpid -e "$P watchpoint:watch_me+arg1:8:w { $show }" 2>&1)
wait $wpid; wpid=
want=$(printf "watchpoint:/proc/$!/exe:watch_me:1:8:w %s\n" '0 100' '1 200' '1 201' '9 999'; printf '\n\n\n')
[[ "$out" == "$want" ]] || fail -p "$out" "$want"

# a function the program does not have
out=$("$SONDE" -c './w 1 0 conts' -e 'watchpoint:nosuch+arg1:8:w { }' 2>&1)
st=$?
want=$(printf '%s\n' "-e:1:1: error[E_PROBE]: watchpoint: function nosuch not found in ./w" 'watchpoint:nosuch+arg1:8:w { }' '^~~~~~~~~~~~~~~~~~~~~~~~~~')
[[ $st == 1 && "$out" == "$want" ]] || fail "not found (exit $st)" "$out" "$want"
exit 0
