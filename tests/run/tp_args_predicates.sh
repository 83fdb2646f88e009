#!/bin/bash
# Predicates on tracepoint fields: integer compares (signed: the int dfd
# in an 8-byte slot is negative), a string compare on str(args->filename),
# and ternaries on args in the body.  Each count is exact.  (bpftrace
# 0.17 takes the format's "signed:0" for dfd and reads it as unsigned,
# so its @negdfd and @fdcwd stay 0: sonde follows the C type, int.)
. "$SONDE_ROOT/tests/lib/trace.sh"
touch "$work/match" "$work/other"
trace syscalls read 4 100 read 3 1500 write 5 777 write 2 778 open "$work/other" open "$work/match" -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_exit_read /pid == $1 && args->ret == 100/ { @ret100 = count(); }
tracepoint:syscalls:sys_enter_read /args.count > 1000 && pid == $1/ { @big = count(); }
tracepoint:syscalls:sys_enter_write /pid == $1 && args->count == 777/ { @w777 = count(); }
tracepoint:syscalls:sys_enter_write /pid == $1 && !(args->count == 777)/ { @wother = count(); }
tracepoint:syscalls:sys_enter_openat /pid == $1 && str(args->filename) == str($2)/ { @match = count(); }
tracepoint:syscalls:sys_enter_openat /pid == $1 && args->dfd < 0/ { @negdfd = count(); }
tracepoint:syscalls:sys_enter_openat /pid == $1 && args->dfd == -100/ { @fdcwd = count(); }
tracepoint:syscalls:sys_exit_write /pid == $1/ { @w[args->ret > 777 ? "778" : "777"] = count(); }' @TRIG@ "$work/match"
expect "Attaching 9 probes...
ready


@big: 3
@fdcwd: 2
@match: 1
@negdfd: 2
@ret100: 4
@w[778]: 2
@w[777]: 5
@w777: 5
@wother: 2"
stderr_clean
