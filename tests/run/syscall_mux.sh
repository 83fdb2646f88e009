#!/bin/bash
# Many syscalls:sys_enter_* / sys_exit_* tracepoints of a block that
# reads no args are one program on raw_syscalls, which selects the
# calls by number (docs/internals.md, "Many syscall tracepoints"):
# the same output as one program per tracepoint (--no-feature
# syscall_mux), probe names included; a block that reads args keeps
# one program per tracepoint, and -v says which way each block went.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog syscalls
cd "$work" || exit 1
# 720 tracepoints: past bpftrace's default limit of 512
export BPFTRACE_MAX_PROBES=2000 BPFTRACE_MAX_BPF_PROGS=2000
script='tracepoint:syscalls:sys_enter_* /pid == cpid/ { @enter[probe] = count(); @n = count(); }
tracepoint:syscalls:sys_exit_* /pid == cpid/ { @exit[probe] = count(); }
tracepoint:syscalls:sys_enter_getppid,tracepoint:syscalls:sys_enter_getpgid /pid == cpid/ { @two[probe] = count(); }'
cmd="$PROGS/syscalls getppid 7 open /etc/hostname read 3 16 write 2 8 pgids 4"
"$SONDE" -v -e "$script" -c "$cmd" > mux.out 2> mux.err || die "mux: $(cat mux.err)"
# the same, one program per tracepoint, on fewer of them (each of the
# 720 perf events takes an RCU grace period to close: 27 s here)
narrow=${script//sys_enter_\*/sys_enter_[egorw]*}
narrow=${narrow//sys_exit_\*/sys_exit_[egorw]*}
"$SONDE" -e "$narrow" -c "$cmd" > narrow.out 2> narrow.err || die "narrow: $(cat narrow.err)"
"$SONDE" --no-feature syscall_mux -e "$narrow" -c "$cmd" > plain.out 2> plain.err ||
	die "plain: $(cat plain.err)"
sed -i '/^Attach/d' mux.out narrow.out plain.out
[[ "$(cat narrow.out)" == "$(cat plain.out)" ]] || die "merged and separate differ:
$(diff narrow.out plain.out)"
# and the whole wildcard counts the same calls of those names
grep -E '^@(enter|exit)\[tracepoint:syscalls:sys_e(nter|xit)_[egorw]' mux.out > mux.sel
grep -E '^@(enter|exit)\[' plain.out > plain.sel
[[ "$(cat mux.sel)" == "$(cat plain.sel)" ]] || die "the whole wildcard differs:
$(diff mux.sel plain.sel)"
# what the trigger did, counted in both
for want in '@enter\[tracepoint:syscalls:sys_enter_getppid\]: 7' \
	    '@exit\[tracepoint:syscalls:sys_exit_getppid\]: 7' \
	    '@enter\[tracepoint:syscalls:sys_enter_getpgid\]: 4' \
	    '@two\[tracepoint:syscalls:sys_enter_getppid\]: 7' \
	    '@two\[tracepoint:syscalls:sys_enter_getpgid\]: 4' \
	    '@enter\[tracepoint:syscalls:sys_enter_write\]: 2'; do
	grep -qE "^$want\$" mux.out || die "no '$want' in: $(cat mux.out)"
done
grep -qE '^sonde: attached tracepoint:syscalls:sys_enter_\* \([0-9]+ system calls on raw_syscalls:sys_enter\)$' mux.err ||
	die "sys_enter_* not merged: $(grep attached mux.err | head)"
grep -qE '^sonde: attached tracepoint:syscalls:sys_exit_\* \([0-9]+ system calls on raw_syscalls:sys_exit\)$' mux.err ||
	die "sys_exit_* not merged: $(grep attached mux.err | head)"
grep -qE 'sys_enter_getppid.* \(2 system calls on raw_syscalls:sys_enter\)$' mux.err ||
	die "a list of two not merged: $(grep attached mux.err | head)"
# The calls newer than the headers sonde is built with take their
# numbers from a table (probe/tpmerge.c): each as the running kernel
# numbers it.  Make calls 335..469 in children (x86-64's uretprobe and
# uprobe, then the unified numbering from 451); the merged program names
# the events by the numbers it knows, the events' own args by the
# kernel's.
acts=()
for nr in 335 336 $(seq 451 469); do acts+=(nr "$nr"); done
"$SONDE" -e 'tracepoint:syscalls:sys_enter_* /comm == "syscalls" && pid != cpid/ { printf("%s\n", probe); }' \
	-c "$PROGS/syscalls ${acts[*]}" > new.out 2> new.err || die "newer calls: $(cat new.err)"
sed -i '/^Attach/d; /^$/d' new.out
names=$(sort -u new.out | paste -sd, -)
"$SONDE" --no-feature syscall_mux -e "$names"' /comm == "syscalls" && pid != cpid/ { printf("%s %d\n", probe, args.__syscall_nr); }' \
	-c "$PROGS/syscalls ${acts[*]}" > newp.out 2> newp.err || die "newer calls, perf: $(cat newp.err)"
sed -i '/^Attach/d; /^$/d' newp.out
[[ $(cut -d' ' -f1 newp.out) == "$(cat new.out)" ]] || die "the newer calls differ:
$(diff new.out newp.out)"
# (the children's set_robust_list and exit_group in both; 20 of the
# newer calls on this kernel)
[[ $(awk '$2 >= 335' newp.out | wc -l) -ge 10 ]] || die "too few newer calls: $(cat newp.out)"
# args: one program per tracepoint, said with -v
"$SONDE" -v -e 'tracepoint:syscalls:sys_enter_getppid,tracepoint:syscalls:sys_enter_getpgid /pid == cpid/ { @[args.__syscall_nr] = count(); }' \
	-c "$PROGS/syscalls getppid 2 pgids 1" > args.out 2> args.err || die "args: $(cat args.err)"
grep -q 'one program per probe: the block reads each one'"'"'s own arguments' args.err ||
	die "no -v note: $(cat args.err)"
grep -q '^sonde: attached tracepoint:syscalls:sys_enter_getppid$' args.err || die "$(cat args.err)"
grep -qE '^@\[[0-9]+\]: 2$' args.out && grep -qE '^@\[[0-9]+\]: 1$' args.out || die "args: $(cat args.out)"
exit 0
