#!/bin/bash
# sonde dtrace's command line as dtrace(1)'s: -n with syscall probes,
# $target and -c, copyinstr and the probe's D names, -l's columns,
# -P/-f descriptions, -e (compile only), the exit statuses (0, 1 a
# failure, 2 bad usage) and the matched-probes notice on stderr.
. "$SONDE_ROOT/tests/usdt/lib.sh"
D() { "$SONDE" dtrace "$@"; }

out=$(D -q -c 'cat /etc/hostname' -n 'syscall::openat:entry /pid == $target/ { printf("%s:%s:%s:%s %s\n", probeprov, probemod, probefunc, probename, copyinstr(arg1)); }' 2> err)
same "openat of the target" "syscall:vmlinux:openat:entry /etc/hostname" "$(grep hostname <<< "$out" | grep -v '^[^s]')"
[[ -s err ]] && { echo "FAIL quiet run printed on stderr: $(cat err)"; exit 1; }

# syscall return probes: arg0 and arg1 are the return value
out=$(D -q -c 'cat /etc/hostname' -n 'syscall::read:return /pid == $target && arg0 > 0/ { printf("%d %d\n", arg0 == arg1, arg0 > 0); }')
# (cat's own output, "vm" here, is on the same stdout)
same "read's return" "1 1" "$(grep '^[0-9]' <<< "$out" | sort -u)"

# not quiet: the notice, then each firing's line
out=$(D -n 'BEGIN { exit(0); }' 2> err)
same "notice" "dtrace: description 'BEGIN ' matched 1 probe" "$(cat err)"
[[ $out == "CPU     ID                    FUNCTION:NAME"$'\n'*":BEGIN "* ]] || { echo "FAIL firing line: $out"; exit 1; }

# -l: DTrace's columns; the IDs are the kernel's
out=$(D -l -n 'syscall::openat:entry' | sed 's/^ *[0-9][0-9]* /ID /')
same "-l" "   ID   PROVIDER            MODULE                          FUNCTION NAME
ID    syscall           vmlinux                            openat entry" "$out"
# -f alone: no provider given, the system call's probes
out=$(D -l -f openat 2>&1)
grep -qE ' syscall +vmlinux +openat entry$' <<< "$out" &&
	grep -qE ' syscall +vmlinux +openat return$' <<< "$out" ||
	{ echo "FAIL -l -f: $out"; exit 1; }
out=$(D -l -f openat -P syscall 2>&1 | wc -l)
[[ $out -ge 2 ]] || { echo "FAIL -l -f -P: $out lines"; exit 1; }

# -l alone: the probes of the plain kernel's providers, BEGIN first
out=$(D -l)
[[ $(sed -n 2,3p <<< "$out") == "    1     dtrace                                                     BEGIN
    2     dtrace                                                     END" ]] || { echo "FAIL -l alone: $(head -3 <<< "$out")"; exit 1; }
grep -qE ' syscall +vmlinux +openat entry$' <<< "$out" || { echo "FAIL -l alone: no syscall::openat:entry"; exit 1; }

# -e: compiled, nothing enabled
D -e -n 'syscall::openat:entry { @[execname] = count(); }' || { echo "FAIL -e"; exit 1; }

# exit statuses
D -n 'BEGIN { exit(0' 2> /dev/null; st=$?
[[ $st == 1 ]] || { echo "FAIL a compile error exits $st, not 1"; exit 1; }
D -n 'BEGIN { exit(3); }' -q; st=$?
[[ $st == 3 ]] || { echo "FAIL exit(3) exits $st"; exit 1; }
D -Y 2> /dev/null; st=$?
[[ $st == 2 ]] || { echo "FAIL a bad option exits $st, not 2"; exit 1; }
D 2> /dev/null; st=$?
[[ $st == 2 ]] || { echo "FAIL no program exits $st, not 2"; exit 1; }
D -p 999999999 -n 'BEGIN { exit(0); }' 2> err; st=$?
[[ $st == 1 && $(cat err) == "dtrace: failed to grab pid 999999999: No such process" ]] || { echo "FAIL -p of no process: $st $(cat err)"; exit 1; }
D -p 12x -n 'BEGIN { exit(0); }' 2> err; st=$?
[[ $st == 1 && $(cat err) == "dtrace: invalid process ID: 12x" ]] || { echo "FAIL -p 12x: $st $(cat err)"; exit 1; }
D -x scratchsize=0 -n 'BEGIN { exit(0); }' 2> err; st=$?
[[ $st == 1 && $(cat err) == "dtrace: failed to set -x scratchsize: Invalid value for specified option" ]] || { echo "FAIL -x scratchsize=0: $st $(cat err)"; exit 1; }
D -x strsize=0 -n 'BEGIN { exit(0); }' 2> err; st=$?
[[ $st == 1 && $(cat err) == "dtrace: failed to set -x strsize: Invalid value for specified option" ]] || { echo "FAIL -x strsize=0: $st $(cat err)"; exit 1; }
# a macro argument the script never references is an error, unless
# -x argref (or its pragma) says arguments may go unused
printf 'BEGIN\n{\n\texit(0);\n}\n' > unused.d
D -x errtags -s unused.d "this is a test" > /dev/null 2> err; st=$?
[[ $st == 1 && $(cat err) == "dtrace: failed to compile script unused.d: [D_MACRO_UNUSED] extraneous argument 'this is a test' (\$1) is not referenced" ]] ||
	{ echo "FAIL D_MACRO_UNUSED: $st $(cat err)"; exit 1; }
D -q -x argref -s unused.d a b > /dev/null 2> err || { echo "FAIL -x argref: $(cat err)"; exit 1; }
printf '#pragma D option argref\nBEGIN { exit(0); }\n' > argref.d
D -q -s argref.d a > /dev/null 2> err || { echo "FAIL argref pragma: $(cat err)"; exit 1; }
rm -f unused.d argref.d
# aggsortpos takes a number; tracemem() records at most 64 KiB
D -x aggsortpos=x -n 'BEGIN { exit(0); }' 2> err; st=$?
[[ $st == 1 && $(cat err) == "dtrace: failed to set -x aggsortpos: Invalid value for specified option" ]] || { echo "FAIL -x aggsortpos=x: $st $(cat err)"; exit 1; }
D -e -n 'BEGIN { tracemem(curthread, 100000); }' 2> err && { echo "FAIL tracemem of 100000 bytes compiled"; exit 1; }
grep -q 'tracemem( ) size 100000 is more than sonde records (65536 bytes)' err || { echo "FAIL tracemem size: $(cat err)"; exit 1; }
# bufpolicy is fill, switch or ring; bufsize and aggsize are sizes
D -x bufpolicy=spill -n 'BEGIN { exit(0); }' 2> err; st=$?
[[ $st == 1 && $(cat err) == "dtrace: failed to set -x bufpolicy: Invalid value for specified option" ]] || { echo "FAIL -x bufpolicy=spill: $st $(cat err)"; exit 1; }
D -x bufsize=-1 -n 'BEGIN { exit(0); }' 2> err; st=$?
[[ $st == 1 && $(cat err) == "dtrace: failed to set -x bufsize: Invalid value for specified option" ]] || { echo "FAIL -x bufsize=-1: $st $(cat err)"; exit 1; }
# strsize is a size (k, m, g, t), at most 1024 in sonde; 256 unless said
out=$(D -q -x strsize=1k -n 'BEGIN { printf("%d ", sizeof(execname)); exit(0); }' 2>&1)
out+=$(D -q -n 'BEGIN { printf("%d", sizeof(execname)); exit(0); }' 2>&1)
[[ $out == "1024 256"* ]] || { echo "FAIL strsize sizes: $out"; exit 1; }
exit 0
