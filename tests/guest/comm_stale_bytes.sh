# Tracepoints only, but the guest's 6.1 kernel matters: its
# bpf_get_current_comm does not zero the bytes after the name's NUL, so
# a comm buffer reused from an earlier event must be cleared first, or
# comm == "dd" and @[comm, ...] keys see stale bytes.
. ./lib
trace "sh -c 'dd if=$data of=/dev/null status=none; dd if=$data of=/dev/null status=none'" '
tracepoint:syscalls:sys_enter_openat /comm == "dd"/ { @open[str(args.filename)] = count(); }
tracepoint:syscalls:sys_enter_read /comm == "dd"/ { @[comm, args.count] = count(); @s = sum(args.count); }'
expect "Attaching 2 probes...


@[dd, 512]: 6
@open[/dev/null]: 2
@open[$data]: 2
@s: 3072"
stderr_clean
