#!/bin/bash
# Each probe holds descriptors (a program, a perf event or link), so a
# wildcard over many of them outgrows a low soft limit of open files:
# sonde raises it to the hard limit (Debian's guest shells start at
# 1,024, and 1,000 kprobes need 2,000), and gives -c's command the
# limit it was started with.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
ulimit -Sn 64 || exit 1
[[ $(ulimit -Hn) -gt 256 ]] || { echo "hard limit $(ulimit -Hn): nothing to raise to"; exit 77; }
# ~25 sched events, each a program and a perf event: past 64
"$SONDE" --no-feature tracepoint_raw -e 'tracepoint:sched:* { @ = count(); }' \
	-c "sh -c 'ulimit -Sn'" > out 2> err || die "sonde failed: $(cat err)"
grep -qx 64 out || die "the command's limit is not 64: $(cat out)"
n=$(sed -n 's/^Attaching \([0-9]*\) probes\.\.\.$/\1/p' out)
[[ ${n:-0} -gt 20 ]] || die "too few probes: $(cat out err)"
grep -q 'attach failed' err && die "$(cat err)"
exit 0
