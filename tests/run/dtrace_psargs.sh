#!/bin/bash
# curpsinfo->pr_psargs: the arguments the process was started with,
# joined by spaces (at most 79 bytes), read from its memory; a kernel
# thread's is its name.
. "$SONDE_ROOT/tests/usdt/lib.sh"
out=$(timeout 20 "$SONDE" dtrace -q -c '/bin/sleep 0.25 0.01 0' -n '
syscall::clock_nanosleep:entry, syscall::nanosleep:entry /pid == $target/ {
	printf("[%s] [%s]\n", curpsinfo->pr_psargs, curpsinfo->pr_fname);
	exit(0);
}' 2>&1)
same "sleep's arguments" "[/bin/sleep 0.25 0.01 0] [sleep]" "$out"
long=$(printf '0%.0s' $(seq 100))
out=$(timeout 20 "$SONDE" dtrace -q -c "/bin/sleep 0.25 0$long" -n '
syscall::clock_nanosleep:entry, syscall::nanosleep:entry /pid == $target/ {
	printf("%d\n", strlen(curpsinfo->pr_psargs));
	exit(0);
}' 2>&1)
same "at most 79 bytes" "79" "$out"
exit 0
