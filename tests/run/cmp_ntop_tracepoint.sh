#!/bin/bash
# ntop() of a tracepoint's byte-array fields (sock:inet_sock_set_state's
# __u8 saddr[4] and __u8 saddr_v6[16]) as bpftrace 0.17 prints them:
# the states of one TCP connection on 127.0.0.1, keyed by addresses.
. "$SONDE_ROOT/tests/lib/trace.sh"
port=$(( 40000 + $$ % 20000 ))
compare_bpftrace 'sort' syscalls tcp $port -- '
BEGIN { printf("ready\n"); }
tracepoint:sock:inet_sock_set_state
/args->sport == '$port' || args->dport == '$port'/ {
	@[ntop(args->saddr), ntop(args->daddr), ntop(args->daddr_v6),
	  args->oldstate, args->newstate] = count();
	@v4[ntop(2, args->saddr_v6)] = count();
}' @TRIG@
want="@[127.0.0.1, 0.0.0.0, ::ffff:0.0.0.0, 10, 7]: 1
@[127.0.0.1, 0.0.0.0, ::ffff:0.0.0.0, 7, 10]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 1, 4]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 1, 8]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 10, 3]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 2, 1]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 3, 1]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 4, 5]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 5, 7]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 7, 2]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 8, 9]: 1
@[127.0.0.1, 127.0.0.1, ::ffff:127.0.0.1, 9, 7]: 1
@v4[0.0.0.0]: 12"
grep "^@" "$work/sonde" > "$work/maps"
expect "$want" "$work/maps"
