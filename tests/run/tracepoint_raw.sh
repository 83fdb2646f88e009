#!/bin/bash
# A tracepoint wildcard's other events (not syscalls:*) of a block that
# reads no args nor kstack are one RAW_TRACEPOINT program on a BPF link
# per tracepoint, which detach at once where perf events take an RCU
# grace period each (docs/internals.md, "Many tracepoints"): the same
# output as one program per event (--no-feature tracepoint_raw), probe
# names included (a table the link's cookie selects); a block that reads
# kstack or args keeps its perf events; -v says which way each went.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
script='tracepoint:sched:sched_process_ex*,tracepoint:task:* /comm == "true"/ { @[probe] = count(); @c[comm, pid > 0] = count(); }
tracepoint:sched:sched_process_ex* /comm == "true"/ { @n = count(); }'
cmd="/bin/sh -c '/bin/true; /bin/true; /bin/true; :'"
"$SONDE" -v -e "$script" -c "$cmd" > raw.out 2> raw.err || die "raw: $(cat raw.err)"
"$SONDE" --no-feature tracepoint_raw -v -e "$script" -c "$cmd" > perf.out 2> perf.err ||
	die "perf: $(cat perf.err)"
[[ "$(cat raw.out)" == "$(cat perf.out)" ]] || die "raw tracepoints and perf events differ:
$(diff raw.out perf.out)"
for want in '@\[tracepoint:sched:sched_process_exec\]: 3' \
	    '@\[tracepoint:sched:sched_process_exit\]: 3' \
	    '@c\[true, 1\]: 6' '@n: 6'; do
	grep -qE "^$want\$" raw.out || die "no '$want' in: $(cat raw.out)"
done
# (a merged program is named after its block's first attach point)
grep -qE '^sonde: attached tracepoint:sched:sched_process_ex\* \(([3-9]|[1-9][0-9]+) raw tracepoints\)$' raw.err ||
	die "not merged: $(grep attached raw.err | head)"
grep -qE '^sonde: attached tracepoint:sched:sched_process_ex\* \(2 raw tracepoints\)$' raw.err ||
	die "the nameless block not merged: $(grep attached raw.err | head)"
grep -q 'raw tracepoints' perf.err && die "--no-feature tracepoint_raw merged: $(cat perf.err)"
# kstack and args: perf events, as before
"$SONDE" -v -e 'tracepoint:sched:sched_process_ex* /comm == "true"/ { @[kstack(1)] = count(); } tracepoint:sched:sched_process_ex* /comm == "true"/ { @p[args.pid > 0] = count(); }' \
	-c "$cmd" > ks.out 2> ks.err || die "kstack: $(cat ks.err)"
grep -q 'raw tracepoints' ks.err && die "kstack or args merged: $(cat ks.err)"
grep -q '^sonde: attached tracepoint:sched:sched_process_exec$' ks.err || die "$(cat ks.err)"
grep -qE '^@p\[1\]: 6$' ks.out || die "args: $(cat ks.out)"
grep -qE '^@\[$' ks.out || die "kstack: $(cat ks.out)"
exit 0
