#!/bin/bash
# One block on two tracepoints whose field has the same name and type
# but not the same offset (filename is at 16 in sys_enter_open and at 24
# in sys_enter_openat): each probe reads its own record's layout.
. "$SONDE_ROOT/tests/lib/trace.sh"
[[ -d /sys/kernel/tracing/events/syscalls/sys_enter_open ]] ||
	"$SONDE" --dump=bpf -e 't:syscalls:sys_enter_open {}' > /dev/null 2>&1 ||
	{ echo "no open system call on this architecture"; exit 77; }
touch "$work/old" "$work/new"
trace syscalls oldopen "$work/old" open "$work/new" oldopen "$work/new" -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_open, tracepoint:syscalls:sys_enter_openat
/pid == $1/
{
	printf("%s %s %d\n", probe, str(args->filename), args->flags);
	@[probe, str(args->filename)] = count();
}' @TRIG@
expect "Attaching 3 probes...
ready
tracepoint:syscalls:sys_enter_open $work/old 0
tracepoint:syscalls:sys_enter_openat $work/new 0
tracepoint:syscalls:sys_enter_open $work/new 0


@[tracepoint:syscalls:sys_enter_open, $work/new]: 1
@[tracepoint:syscalls:sys_enter_open, $work/old]: 1
@[tracepoint:syscalls:sys_enter_openat, $work/new]: 1"
stderr_clean
