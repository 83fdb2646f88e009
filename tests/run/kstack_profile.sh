#!/bin/bash
# kstack in profile probes, as map keys with comm.  A sample taken while
# a process runs in user space has no kernel stack: it prints as an
# empty stack, "@[, comm]: N", as in bpftrace 0.17.  Samples in the
# kernel show frames.
set -u
dir=$(mktemp -d)
cp /bin/bash "$dir/busyloop"
"$dir/busyloop" -c 'while :; do :; done' & bpid=$!
# and a process spending its time in the kernel, so that samples with
# kernel frames exist even on an otherwise idle machine
dd if=/dev/zero of=/dev/null bs=64k count=100000000 2>/dev/null & kpid=$!
trap 'kill $bpid $kpid 2>/dev/null; rm -rf "$dir"' EXIT
out=$("$SONDE" -q -e 'profile:hz:199 { @[kstack(5), comm] = count(); }
	interval:ms:800 { exit(); }' 2>&1) || { echo "sonde failed: $out"; exit 1; }
fail=0
grep -qE '^@\[, busyloop\]: [0-9]+$' <<< "$out" ||
	{ echo "no empty stack for the user-space loop"; fail=1; }
grep -qE '^    [A-Za-z0-9_.]+\+[0-9]+$' <<< "$out" ||
	{ echo "no kernel frame at all"; fail=1; }
(( fail )) && printf '%s\n' "$out"
exit $fail
