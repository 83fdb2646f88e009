#!/bin/bash
# sys_exit_read's args->ret (long) in hist(), lhist(), sum() and stats():
# the trigger reads known block sizes from /dev/zero, so every row is
# known exactly; sys_enter_read's args->count is the size asked for.
# (bpftrace 0.17 prints exactly this too.)
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls read 10 4096 read 3 100 read 2 1 read 1 0 read 5 65536 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_exit_read /pid == $1/ {
	@bytes = hist(args->ret);
	@small = lhist(args->ret, 0, 200, 50);
	@total = sum(args->ret);
	@s = stats(args->ret);
}
tracepoint:syscalls:sys_enter_read /pid == $1/ { @asked[args->count] = count(); }' @TRIG@
expect "Attaching 3 probes...
ready


@asked[0]: 1
@asked[1]: 2
@asked[100]: 3
@asked[65536]: 5
@asked[4096]: 10
@bytes: 
[0]                    1 |@@@@@                                               |
[1]                    2 |@@@@@@@@@@                                          |
[2, 4)                 0 |                                                    |
[4, 8)                 0 |                                                    |
[8, 16)                0 |                                                    |
[16, 32)               0 |                                                    |
[32, 64)               0 |                                                    |
[64, 128)              3 |@@@@@@@@@@@@@@@                                     |
[128, 256)             0 |                                                    |
[256, 512)             0 |                                                    |
[512, 1K)              0 |                                                    |
[1K, 2K)               0 |                                                    |
[2K, 4K)               0 |                                                    |
[4K, 8K)              10 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
[8K, 16K)              0 |                                                    |
[16K, 32K)             0 |                                                    |
[32K, 64K)             0 |                                                    |
[64K, 128K)            5 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |

@s: count 21, average 17568, total 368942

@small: 
[0, 50)                3 |@@@@@@@@@@                                          |
[50, 100)              0 |                                                    |
[100, 150)             3 |@@@@@@@@@@                                          |
[150, 200)             0 |                                                    |
[200, ...)            15 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|

@total: 368942"
stderr_clean
