#!/bin/bash
# D's sym()/func()/mod() and usym()/ufunc()/umod(): "module`symbol" or
# the module alone, padded as dtrace's trace() pads them ("  %-50s"),
# in aggregation keys too; execargs is the process's arguments.
. "$SONDE_ROOT/tests/usdt/lib.sh"
D() { "$SONDE" dtrace "$@"; }

out=$(D -q -c 'perl -e getppid' -n 'syscall::getppid:entry /pid == $target/ {
	printf("[%s]\n", execargs);
	trace(sym(caller)); printf("|\n");
	trace(func(caller)); printf("|\n");
	trace(mod(caller)); printf("|\n");
	exit(0); }' 2>&1)
same "execargs" "[perl -e getppid]" "$(sed -n 1p <<< "$out")"
grep -qE '^  vmlinux`[a-z_0-9.]+ +\|$' <<< "$(sed -n 2p <<< "$out")" ||
	{ echo "FAIL sym: $out"; exit 1; }
[[ $(sed -n 2p <<< "$out") == "$(sed -n 3p <<< "$out")" ]] || { echo "FAIL func != sym: $out"; exit 1; }
same "sym's width" 53 "$(sed -n 2p <<< "$out" | awk '{ print length($0) }')"
same "mod" "  vmlinux                                           |" "$(sed -n 4p <<< "$out")"

out=$(D -q -c 'perl -e getppid' -n 'pid$target::getppid:entry {
	trace(ufunc(uregs[R_PC])); printf("|\n");
	trace(umod(uregs[R_PC])); printf("|\n");
	@[usym(uregs[R_PC])] = count();
	exit(0); }' 2>&1)
same "ufunc" "  libc.so.6\`getppid                                 |" "$(sed -n 1p <<< "$out")"
same "umod" "  libc.so.6                                         |" "$(sed -n 2p <<< "$out")"
grep -qE '^  libc\.so\.6`getppid +1$' <<< "$out" || { echo "FAIL usym key: $out"; exit 1; }
exit 0
