# ustack.sh - the traced program of the ustack tests (tests/run/ustack_*.sh
# and usym.sh source it).
#
# ustack_prog OUT [CC FLAGS...] builds OUT from OUT.c: main calls
# call_fn(first_fn, i) N times (N = its first argument, default 1);
# first_fn -> second_fn -> third_fn -> leaf_fn -> getppid() in libc,
# each a real call with a frame (frame pointers on, no CET endbr64, so
# third_fn+4 is just past the frame's set-up).  "OUT N wait" prints
# "waiting" and blocks until SIGUSR1 before it calls anything; in every
# case it exits at once after the last call.
ustack_prog() {
	local out=$1
	shift
	cat > "$out.c" <<'C'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
__attribute__((noinline)) int leaf_fn(int x) { return (int)getppid() + x; }
__attribute__((noinline)) int third_fn(int x) { return leaf_fn(x) + 1; }
__attribute__((noinline)) int second_fn(int x) { return third_fn(x) + 2; }
__attribute__((noinline)) int first_fn(int x) { return second_fn(x) + 3; }
__attribute__((noinline)) int call_fn(int (*f)(int), int x) { return f(x) + 4; }
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	long s = 0;

	if (argc > 2 && !strcmp(argv[2], "wait")) {
		sigset_t set;
		int sig;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		printf("waiting\n");
		fflush(stdout);
		sigwait(&set, &sig);
	}
	for (int i = 0; i < n; i++)
		s += call_fn(first_fn, i);
	return s == 12345;
}
C
	cc -O1 -fno-omit-frame-pointer -fcf-protection=none "$@" -o "$out" "$out.c"
}

# wait_line FILE REGEX: poll (20 s at most) for a line of FILE matching.
wait_line() {
	local i
	for ((i = 0; i < 400; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# frames TEXT KEY: the frame lines of the first stack of map KEY ("@",
# "@p") in sonde's output TEXT: the lines after "KEY[" up to "]...".
frames() {
	awk -v k="$2[" '$0 == k { on = 1; next } on && /^[],]/ { exit } on' <<< "$1"
}
