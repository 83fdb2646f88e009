#!/bin/bash
# kstack in a syscall tracepoint: the stack of getppid() (bash calls it
# as it starts) enters the kernel through do_syscall_64 from
# entry_SYSCALL_64*, and prints as bpftrace 0.17 prints a stack in a map
# key: "@[", one "    func+off" line per frame, "]: count".
set -u
trigger() { while :; do bash -c true; sleep 0.05; done; }
trigger & tpid=$!
trap 'kill $tpid 2>/dev/null' EXIT
out=$("$SONDE" -q kstack_syscall.bt 2>&1) || { echo "sonde failed: $out"; exit 1; }
fail=0
need() { # what regex
	grep -qE "$2" <<< "$out" || { echo "no $1 (/$2/)"; fail=1; }
}
need "@[ line" '^@\[$'
need "do_syscall_64 frame" '^    do_syscall_64\+[0-9]+$'
need "entry_SYSCALL_64 frame" '^    entry_SYSCALL_64[A-Za-z_]*\+[0-9]+$'
need "closing line" '^\]: [0-9]+$'
need "tuple key closing line" '^, [^]]+\]: [0-9]+$'
need "@same" '^@same: 1$'
# Inside a key every line is a frame; kstack(4) keeps at most 4.
bad=$(awk '/^@\[$/ { inkey = 1; n = 0; lim = 127; next }
	/^@c\[$/ { inkey = 1; n = 0; lim = 4; next }
	inkey && /^(\]|, )/ { inkey = 0; if (n > lim) print "more than " lim " frames"; next }
	inkey && !/^    [A-Za-z0-9_.]+\+[0-9]+$/ { print "bad frame line: " $0 }
	inkey { n++ }' <<< "$out")
if [[ -n $bad ]]; then echo "$bad"; fail=1; fi
(( fail )) && printf '%s\n' "$out"
exit $fail
