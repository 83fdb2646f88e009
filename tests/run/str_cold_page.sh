#!/bin/bash
# str() of a string in a page the process has not touched yet: a
# uprobe's program loaded sleepable faults the page in (Linux 6.0 and
# later), where bpftrace 0.17 (and sonde before) read an empty string.
# One string in a page, one across two untouched pages; with a length,
# as a map key, and with a stack in the block (no sleeping then: a
# stack trace map is not allowed in a sleepable program, and the read
# finds nothing, as bpftrace's).
. "$SONDE_ROOT/tests/lib/trace.sh"
trace coldstr -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
uprobe:'"$PROGS"'/coldstr:take /pid == $1/ {
	printf("[%s] [%s]\n", str(arg0), str(arg0, 4));
	@[str(arg0)] = count();
}' @TRIG@
expect "Attaching 2 probes...
ready
[cold page] [cold]
[spans two] [span]


@[cold page]: 1
@[spans two]: 1"
stderr_clean
trace coldstr -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
uprobe:'"$PROGS"'/coldstr:take /pid == $1/ {
	@[ustack(1)] = count();
	printf("[%s]\n", str(arg0));
}' @TRIG@
grep -q '^\[\]$' "$work/out" || die "with a stack: $(cat "$work/out")"
stderr_clean
