#!/bin/bash
# The "read size" one-liners print exactly what bpftrace 0.17 prints:
# hist() and lhist() keyed by comm of sys_exit_read's args->ret, and
# sys_enter_read's args->count by size, for a trigger reading known
# block sizes.
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace cat syscalls read 6 512 read 2 3000 read 1 20000 -- '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_exit_read /pid == $1/ { @[comm] = hist(args->ret); @l[comm] = lhist(args->ret, 0, 4000, 1000); }
tracepoint:syscalls:sys_enter_read /pid == $1/ { @req = hist(args->count); @sz[args->count] = count(); }' @TRIG@
expect "Attaching 3 probes...
ready


@[syscalls]: 
[512, 1K)              6 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
[1K, 2K)               0 |                                                    |
[2K, 4K)               2 |@@@@@@@@@@@@@@@@@                                   |
[4K, 8K)               0 |                                                    |
[8K, 16K)              0 |                                                    |
[16K, 32K)             1 |@@@@@@@@                                            |

@l[syscalls]: 
[0, 1000)              6 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
[1000, 2000)           0 |                                                    |
[2000, 3000)           0 |                                                    |
[3000, 4000)           2 |@@@@@@@@@@@@@@@@@                                   |
[4000, ...)            1 |@@@@@@@@                                            |

@req: 
[512, 1K)              6 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
[1K, 2K)               0 |                                                    |
[2K, 4K)               2 |@@@@@@@@@@@@@@@@@                                   |
[4K, 8K)               0 |                                                    |
[8K, 16K)              0 |                                                    |
[16K, 32K)             1 |@@@@@@@@                                            |

@sz[20000]: 1
@sz[3000]: 2
@sz[512]: 6" "$work/sonde"
