#!/bin/bash
# examples/usdt builds with its Makefile (sonde dtrace -h and -G, cc)
# and its trace.bt sees every request, the guarded cache__stats probe
# and the statuses.
. "$SONDE_ROOT/tests/usdt/lib.sh"
command -v make > /dev/null || { echo "no make"; exit 77; }
cp "$SONDE_ROOT"/examples/usdt/* .
make -s SONDE="$SONDE" > make.out 2>&1 || { echo "FAIL: make:"; cat make.out; exit 1; }
same "untraced" "served 5 requests, 1 errors" "$(./program 5 1)"
same "list" "usdt:./program:myapp:cache__stats
usdt:./program:myapp:request__done
usdt:./program:myapp:request__start" "$(make -s SONDE="$SONDE" list | grep '^usdt:')"
trace trace.bt -c './program 5 1' trace.bt
same "trace.bt" "request 0: /index.html
    cache: 0 hits, 1 misses
request 1: /about.html
    cache: 0 hits, 2 misses
request 2: /missing
    cache: 0 hits, 3 misses
request 3: /index.html
    cache: 1 hits, 2 misses
request 4: /style.css
    cache: 1 hits, 3 misses
@status[404]: 1
@status[200]: 4" "$(grep -v -e '^@ns' -e '^\[' -e '^$' -e '^served' <<< "$out")"
# the program's own line comes when it exits: anywhere among sonde's
grep -qx 'served 5 requests, 1 errors' <<< "$out" || { echo "FAIL: the program's output"; exit 1; }
exit 0
