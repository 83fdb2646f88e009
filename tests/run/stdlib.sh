#!/bin/bash
# The standard library (docs/language.md "Standard library"), every
# script's without an import: the process macros against the shell
# that starts sonde, is_err, assert and errorf/warnf (their messages on
# stderr, after the call's place), syscall_name and signal_name, the
# type predicates, has_cpid, static_assert and fail.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
S() { "$SONDE" -q --dialect=0.26 "$@"; }
# a shell named "stdlib-parent" starts sonde: its pid is ppid, its name
# pcomm; sonde's own pid is leader_tid and its name leader_comm
cp "$(command -v bash)" stdlib-parent
./stdlib-parent -c 'echo $$ > ppid; '"$SONDE"' -q --dialect=0.26 -e "begin { printf(\"%d %s %d %s %d\n\", ppid, pcomm, leader_tid, leader_comm, pid); exit(); }" > out 2> err; true'
read -r pp pc lt lc p < out || die "no output: $(cat err)"
[[ $pp == "$(cat ppid)" ]] || die "ppid $pp, the shell's pid is $(cat ppid)"
[[ $pc == stdlib-parent ]] || die "pcomm $pc, not stdlib-parent"
[[ $lt == "$p" ]] || die "leader_tid $lt, pid $p"
[[ $lc == sonde ]] || die "leader_comm $lc"
stderr_clean
# the task forms: of curtask, the same
S -e 'begin { $t = (struct task_struct *)curtask; printf("%d\n", ppid($t) == ppid && pcomm($t) == pcomm && leader_tid($t) == pid); exit(); }' > out 2> err
expect "1

"
stderr_clean
# is_err: the last 4095 addresses are errors
S -e 'begin { printf("%d %d %d %d\n", is_err(0), is_err(-1), is_err(-4095), is_err(-4096)); exit(); }' > out 2> err
expect "0 1 1 0

"
stderr_clean
# syscall_name and signal_name: printed as text, also as map keys
S -e 'begin { printf("%s %s %s|%s|%s\n", syscall_name(0), syscall_name(257), signal_name(2), signal_name(100), syscall_name(100000)); @[signal_name(9)] = count(); exit(); }' > out 2> err
expect "read openat Interrupt|N/A|


@[Killed]: 1"
stderr_clean
# assert: nothing when true; when false an error on stderr, exit 1
S -e 'begin { assert(1 == 1, "fine"); printf("a\n"); assert(pid == 0, "pid is not 0"); printf("b\n"); }' > out 2> err
rc=$?
[[ $rc == 1 ]] || die "assert: exit status $rc, not 1"
expect "a

"
# the place is the errorf in the library's assert, as bpftrace shows it
[[ $(cat err) == 'stdlib/base.bt:5:5-37: ERROR: assert failed: pid is not 0' ]] || die "assert stderr: $(cat err)"
S -e 'BEGIN { assert(false, "My error message"); }' > out 2> err
[[ $? == 1 && $(cat err) == 'stdlib/base.bt:5:5-37: ERROR: assert failed: My error message' ]] ||
	die "assert(false): $(cat err)"
# errorf in a macro of the script: its place in the macro
S -e 'macro check(x) { if (!x) { errorf("no %d", x); } }
BEGIN { check(0); exit(); }' > out 2> err
[[ $(cat err) == 'stdin:1:28-46: ERROR: no 0' ]] || die "errorf in a macro: $(cat err)"
# errorf and warnf: printf to stderr after the place; --no-warnings
# silences warnf
S -e 'begin { errorf("bad %d, %s", 10, "arg2"); warnf("hmm %d", 1); printf("out\n"); exit(); }' > out 2> err
expect "out

"
[[ $(cat err) == $'stdin:1:9-41: ERROR: bad 10, arg2\nstdin:1:43-61: WARNING: hmm 1' ]] || die "errorf stderr: $(cat err)"
S --no-warnings -e 'begin { warnf("hmm %d", 1); exit(); }' > out 2> err
stderr_clean
# a script file names itself
printf 'begin {\n  errorf("in %%s", "file");\n  exit();\n}\n' > e.bt
S e.bt > out 2> err
[[ $(cat err) == 'e.bt:2:3-26: ERROR: in file' ]] || die "errorf in a file: $(cat err)"
# the type predicates are constants; their argument is not evaluated
S -e 'begin { $s = "x"; print((is_integer(1), is_integer($s), is_unsigned_integer((uint8)1), is_unsigned_integer(-1), is_str($s), is_str(1), is_ptr((struct task_struct *)curtask), is_ptr(1), is_literal(2), is_literal("a"), is_literal($s), is_array(((struct task_struct *)curtask)->comm))); if (is_integer(@n++)) { printf("%d\n", @n); } exit(); }' > out 2> err
expect "(1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0)
0


"
stderr_clean
# kfunc_exist/kfunc_allowed: the kernel's BTF has the function;
# default_str_length: max_strlen, bare or called
S -e 'config = { max_strlen = 100 } begin { print((kfunc_exist("bpf_task_from_pid"), kfunc_exist("no_such_fn_x"), kfunc_allowed("bpf_task_release"), default_str_length, default_str_length())); exit(); }' > out 2> err
expect "(1, 0, 1, 100, 100)

"
stderr_clean
# has_cpid: whether -c gives a child
S -e 'begin { print(has_cpid); exit(); }' > out 2> err
expect "0

"
S -c 'sleep 0.01' -e 'begin { print(has_cpid()); exit(); }' > out 2> err
expect "1

"
# fail and static_assert: compile errors, but not in a dead branch
S -e 'begin { if ($1 < 2) { fail("the first parameter must be 2 or more, not %d", $1); } print($1); exit(); }' 3 > out 2> err
expect "3

"
S -e 'begin { if ($1 < 2) { fail("the first parameter must be 2 or more, not %d", $1); } print($1); exit(); }' 1 > out 2> err
[[ $? == 1 ]] || die "fail() did not fail"
grep -q 'error\[E_FAIL\]: the first parameter must be 2 or more, not 1' err || die "fail: $(cat err)"
# && and || of known conditions are known
S -e 'begin { if ($1 == 0 || $1 > 10) { fail("out of range: %d", $1); } print($1); exit(); }' 5 > out 2> err
expect "5

"
S -e 'begin { if ($1 == 0 || $1 > 10) { fail("out of range: %d", $1); } print($1); exit(); }' 11 > out 2> err
[[ $? == 1 ]] && grep -q 'error\[E_FAIL\]: out of range: 11' err || die "fail with ||: $(cat err)"
S -e 'begin { static_assert(sizeof(int32) == 4, "int32"); print(1); exit(); }' > out 2> err
expect "1

"
echo ok
