#!/bin/bash
# sonde dtrace's reports of the faults of scratch memory, in dtrace's
# words: the address no alloca() gave (the scratch map's, printed as
# ADDR here), and "out of scratch space" past -x scratchsize; the
# script is tests/d/alloca_faults.d (its stdout checked there).
. "$SONDE_ROOT/tests/usdt/lib.sh"
"$SONDE" dtrace -s "$SONDE_ROOT/tests/d/alloca_faults.d" > out 2> err
st=$?
(( st == 0 )) || { echo "FAIL exit $st"; cat err; exit 1; }
got=$(sed 's/(0x[0-9a-f]*)/(ADDR)/' err)
same "fault messages" "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (ADDR) in action #1
dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (ADDR) in action #1
dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (ADDR) in action #1
dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (ADDR) in action #1
dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): out of scratch space in action #1" "$got"
exit 0
