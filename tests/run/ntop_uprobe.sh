#!/bin/bash
# uprobe on libc's connect(): buf() and macaddr() read the sockaddr from
# the process's memory (probe_read_user), ntop() prints its address.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog syscalls
"$SONDE" -c "$PROGS/syscalls connect 127.0.0.1 9 connect ::1 53" -e '
uprobe:libc:connect {
	if (arg2 == 16) {
		printf("%s %r %s\n", ntop(buf(arg1 + 4, 4)), buf(arg1, 4),
		       macaddr(arg1 + 2));
	} else {
		printf("%s %rh\n", ntop(buf(arg1 + 8, 16)), buf(arg1, 4));
	}
}' > "$work/out" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
expect 'Attaching 1 probe...
127.0.0.1 \x02\x00\x00\x09 00:09:7F:00:00:01
::1 0a 00 00 35

'
stderr_clean
