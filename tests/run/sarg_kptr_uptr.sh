#!/bin/bash
# sarg0..sargN read a function's arguments on the stack (x86-64: the
# seventh on), from the process's memory in a uprobe; kptr() and uptr()
# say which memory str(), buf() and '*' read, whatever the probe (in a
# uprobe, kptr() makes the read fail: an empty string, zeros).  Output
# as bpftrace 0.17 prints it.
. "$SONDE_ROOT/tests/lib/trace.sh"
[[ $(uname -m) == x86_64 ]] || { echo "sargN is x86-64's stack layout"; exit 77; }
prog stackargs
"$SONDE" -c "$PROGS/stackargs" -e '
uprobe:'"$PROGS"'/stackargs:ten_args {
	printf("%d %d [%s] %d\n", sarg0, sarg1, str(sarg2), *uptr(sarg3));
	printf("[%s] [%s] [%s] %d %d\n", str(arg0), str(kptr(sarg2)), str(uptr(sarg2)), *uptr(sarg3), *kptr(sarg3));
	$k = kptr(sarg2); $u = uptr(sarg2);
	printf("[%s] [%s] %r %r\n", str($k), str($u), buf(kptr(sarg2), 2), buf($u, 2));
	@s = sarg1; @t[sarg0] = count();
}' > "$work/out" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
grep -v '^182$' "$work/out" > "$work/out2"	# the program'"'"'s own line
expect 'Attaching 1 probe...
7 8 [hello] 42
[] [] [hello] 42 0
[] [hello] \x00\x00 he


@s: 8
@t[7]: 1' "$work/out2"
stderr_clean
