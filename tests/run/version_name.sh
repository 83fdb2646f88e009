#!/bin/bash
# Installed or linked as bpftrace, sonde says which bpftrace it speaks
# (scripts and tools read `bpftrace --version`); as sonde, its own.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
ln -s "$SONDE" bpftrace
[[ $("$SONDE" --version) =~ ^sonde\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || die "sonde: $("$SONDE" --version)"
[[ $(./bpftrace --dialect=0.26 --version) =~ ^bpftrace\ v0\.26\.1\ \(sonde\ [0-9.]+\)$ ]] || die "as bpftrace: $(./bpftrace --dialect=0.26 --version)"
[[ $(./bpftrace --dialect=0.17 -V) =~ ^bpftrace\ v0\.17\.0\ \(sonde ]] || die "0.17: $(./bpftrace --dialect=0.17 -V)"
# and runs scripts as sonde does
./bpftrace -q -e 'BEGIN { printf("%s\n", "ran"); exit(); }' > out 2> err || die "run: $(cat err)"
expect "ran

"
echo ok
