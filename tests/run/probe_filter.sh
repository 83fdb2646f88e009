#!/bin/bash
# --probe-filter REGEX (bpftrace 0.26): only the probes whose full names
# match are loaded and attached, BEGIN and END always; a filter that
# leaves none is an error, as is a bad regular expression.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
script='BEGIN { printf("begin\n"); }
tracepoint:syscalls:sys_enter_getppid { printf("getppid\n"); }
tracepoint:syscalls:sys_enter_getpid, tracepoint:syscalls:sys_enter_gettid /pid == cpid/ { printf("%s\n", probe); }
END { printf("end\n"); }'
prog='import os; os.getppid(); os.getpid(); os.getppid()'
"$SONDE" --dialect=0.26 --probe-filter 'getpid$' -e "$script" -c "python3 -c '$prog'" > out 2> err ||
	die "exit $?: $(cat err)"
expect "begin
tracepoint:syscalls:sys_enter_getpid
end

"
[[ $(cat err) == "Attached 3 probes" ]] || die "stderr: $(cat err)"
"$SONDE" -l --probe-filter 'sys_enter_get(pp|t)id' -c true -e "$script" > out 2> err || die "-l: $(cat err)"
expect "BEGIN
tracepoint:syscalls:sys_enter_getppid
tracepoint:syscalls:sys_enter_gettid
END"
"$SONDE" --probe-filter 'nothing' -e "$script" > out 2> err && die "a filter matching nothing ran"
[[ $(cat err) == "-e:2:1: error[E_PROBE]: --probe-filter matches no probe of the script
tracepoint:syscalls:sys_enter_getppid { printf(\"getppid\\n\"); }
^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~" ]] || die "no match: $(cat err)"
"$SONDE" --probe-filter '(' -e "$script" > out 2> err && die "a bad regex ran"
[[ $(cat err) == "sonde: --probe-filter '(': Unmatched ( or \\(" ]] || die "bad regex: $(cat err)"
echo ok
