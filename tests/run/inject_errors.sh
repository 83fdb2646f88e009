#!/bin/bash
# sonde inject's command line: each mistake a clear message and exit
# status 2 before anything is loaded; a user who is not root is refused;
# on this host, whose kernel runs no fentry programs, the error names
# the kernel feature missing (the guest tier injects for real:
# tests/guest/inject.sh).
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
check() {	# want-substring args...
	local want=$1 out st
	shift
	out=$("$SONDE" inject "$@" 2>&1)
	st=$?
	[[ $st == 2 ]] || die "inject $*: exit $st, want 2: $out"
	[[ $out == "sonde inject: "*"$want"* ]] || die "inject $*: want '$want' in: $out"
	[[ $out == *Attach* ]] && die "inject $*: attached: $out"
	return 0
}
check "--fail CALL is needed" --errno ENOENT
check "give one of --errno E and --return N" --fail openat
check "give one of --errno E and --return N" --fail openat --errno EIO --return -5
check "--errno takes a name like ENOENT or a number, not 'enoent'" --fail openat --errno enoent
check "--return takes an integer, not 'x'" --fail openat --return x
check "--return 0 is no failure" --fail openat --return 0
check "--fail frobnicate: not a call sonde inject knows" --fail frobnicate --errno EIO
check "--fail /lib/x86_64-linux-gnu/libc.so.6:malloc: a user function needs -c CMD or --pid PID" \
	--fail /lib/x86_64-linux-gnu/libc.so.6:malloc --return 0
check "--fail FILE:FUNC takes a file and a function, not '/bin/true:a b'" --fail '/bin/true:a b' --return 0
check "--fail kernel:FUNC takes a kernel function's name, not 'kernel:a b'" --fail 'kernel:a b' --errno EIO
check "--path-prefix works with calls on files (open, read, write), not connect" \
	--fail connect --errno ECONNREFUSED --path-prefix /etc
check "--probability takes a number above 0 and at most 1, not '2'" --fail openat --errno EIO --probability 2
check "--probability takes a number above 0 and at most 1, not '0'" --fail openat --errno EIO --probability 0
check "--every takes a number from 1" --fail openat --errno EIO --every 0
check "--count takes a whole number" --fail openat --errno EIO --count -1
check "unknown option '--frob'" --fail openat --errno EIO --frob
check "--comm needs a value" --fail openat --errno EIO --comm
check "-f takes json or text, not 'yaml'" --fail openat --errno EIO -f yaml
check "give -c CMD or --pid PID, not both" --fail openat --errno EIO --pid 1 -c true
check "--comm, --cgroup and --path-prefix take printable text" --fail openat --errno EIO --comm $'a\tb'
# --help: the usage, # a user function, where uprobe programs may not write registers (Linux
# 7.0 may: tests/guest/uprobe_override.sh): the compile says so
out=$("$SONDE" inject --fail "$PROGS/syscalls:main" --return 0 -c "$PROGS/syscalls getppid 1" 2>&1)
[[ $? == 1 && $out == *"needs a kernel whose uprobe programs may write registers (Linux 7.0); this one cannot"* ]] ||
	die "user function on this host: $out"
exit 0
out=$("$SONDE" inject --help) || die "--help: exit $?"
[[ $out == "usage: sonde inject --fail CALL"* ]] || die "--help: $out"
# not root
if id nobody > /dev/null 2>&1 && command -v setpriv > /dev/null; then
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$SONDE" inject --fail openat --errno EIO 2>&1)
	st=$?
	[[ $st == 2 && $out == "sonde inject: only root may inject faults" ]] ||
		die "as nobody: exit $st: $out"
fi
# this kernel has no BPF trampolines: said, after what was armed
out=$("$SONDE" inject --fail openat --errno ENOENT -c true 2>&1)
st=$?
[[ $st == 1 ]] || die "on this host: exit $st: $out"
[[ $out == "sonde inject: arming openat (fentry:security_file_open) to return -ENOENT, in the command; its exit or Ctrl-C disarms"* ]] ||
	die "no summary first: $out"
[[ $out == *"this kernel does not run fentry/fexit programs (no BPF trampoline support)"* ]] ||
	die "the missing feature is not named: $out"
check "--errno ENOSUCHERR: no such errno here" --fail openat --errno ENOSUCHERR
# a user function, where uprobe programs may not write registers (Linux
# 7.0 may: tests/guest/uprobe_override.sh): the compile says so
out=$("$SONDE" inject --fail "$PROGS/syscalls:main" --return 0 -c "$PROGS/syscalls getppid 1" 2>&1)
[[ $? == 1 && $out == *"needs a kernel whose uprobe programs may write registers (Linux 7.0); this one cannot"* ]] ||
	die "user function on this host: $out"
exit 0
