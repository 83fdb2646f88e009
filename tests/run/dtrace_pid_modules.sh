#!/bin/bash
# sonde dtrace's pid provider over a process's modules: a.out is the
# program (a -c script's interpreter, as dtrace's a.out is), no module
# the program and every library it maps; a wildcard over thousands of
# functions whose clause reads probefunc is one uprobe_multi program
# per file, its names read by the link's cookie (else the 1024
# programs limit stops it); a function with several names is one
# probe, by its plainest name; dtrace's errors for a function a named
# module lacks (D_PROC_FUNC) and an offset past a function's end
# (D_PROC_OFF); a process forked just before sonde that has not
# exec'd yet is waited for.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog raised
cd "$PROGS" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

err=$(timeout 20 "$SONDE" dtrace -xerrtags -c ./raised -n 'pid$target:a.out:nosuch:entry {}' 2>&1)
same "a function a.out lacks: status" 1 "$?"
same "a function a.out lacks" "dtrace: invalid probe specifier pid\$target:a.out:nosuch:entry {}: [D_PROC_FUNC] line 1: failed to lookup 'nosuch' in module 'a.out'" "$err"

err=$(timeout 20 "$SONDE" dtrace -xerrtags -c ./raised -n 'pid$target::caught:100000 {}' 2>&1)
same "an offset past the end: status" 1 "$?"
same "an offset past the end" "dtrace: invalid probe specifier pid\$target::caught:100000 {}: [D_PROC_OFF] line 1: offset 0x100000 outside of function 'caught'" "$err"

# every function of raised and of libc (thousands), probefunc read
out=$(timeout 30 "$SONDE" dtrace -q -w -c ./raised -n '
syscall::getpid:return /pid == $target && !done/ { done = 1; raise(SIGUSR1); }
pid$target:::entry /probefunc == "getpid" || probefunc == "caught"/ { @[probemod, probefunc] = count(); }
END { printa("%s %s\n", @); }' 2>&1 | grep -v '^$' | sort)
same "probemod and probefunc of a wildcard over every module" "libc.so.6 getpid
raised caught" "$out"

# uregs[]: the process's registers at the probe, by DTrace's R_ names
want=$(nm raised | awk '$3 == "caught" { print substr($1, length($1) - 2) }')
out=$(timeout 20 "$SONDE" dtrace -q -w -c ./raised -n '
syscall::getpid:return /pid == $target/ { raise(SIGUSR1); }
pid$target:a.out:caught:entry {
	printf("%d %d %03x\n", uregs[R_RDI] == arg0 && uregs[R_RSI] == arg1,
	    uregs[R_SP] == uregs[R_RSP], uregs[R_PC] & 0xfff);
	exit(0);
}' 2>&1)
same "uregs" "1 1 $want" "$out"

# _init and _fini are no wildcard's, as in dtrace; named, they are
out=$(timeout 20 "$SONDE" dtrace -l -c ./raised -n 'pid$target:a.out::entry' | awk '{ print $4 }' | grep -cxE '_init|_fini|main')
same "_init and _fini out of a wildcard" 1 "$out"
out=$(timeout 20 "$SONDE" dtrace -l -c ./raised -n 'pid$target:a.out:_init:entry' | awk 'NR > 1 { print $4 }')
same "_init named" "_init" "$out"

# free's aliases (__libc_free, cfree) are one probe, named free
out=$(timeout 30 "$SONDE" dtrace -q -c 'ls /' -n 'pid$target:libc.so.6:*free:entry { @[probefunc] = count(); }
END { printa("%s\n", @); }' 2>&1 | grep -xE 'free|__libc_free|cfree')
same "one probe per address" "free" "$out"

# named by an alias, a function is still its plainest name's probe
out=$(timeout 30 "$SONDE" dtrace -q -c 'ls /' -n 'pid$target:libc.so.6:__libc_free:entry { @[probefunc] = count(); }
END { printa("%s\n", @); }' 2>&1 | grep -xE 'free|__libc_free|cfree')
same "an alias named" "free" "$out"
out=$(timeout 20 "$SONDE" dtrace -l -c ./raised -n 'pid$target:libc.so.6:__libc_free:entry' | awk 'NR > 1 { print $4 }')
same "an alias named, listed" "free" "$out"

# a script's a.out is its interpreter's
printf '#!/bin/bash\nexit 0\n' > "$tmp/script"
chmod +x "$tmp/script"
out=$(timeout 20 "$SONDE" dtrace -q -c "$tmp/script" -n 'pid$target:a.out:main:entry { printf("%s\n", probemod); }' 2>&1)
same "a script's a.out" "bash" "$out"

# a fork of this shell that execs raised a moment later: its a.out is
# raised's, not bash's
( sleep 0.5; exec ./raised ) &
bg=$!
out=$(timeout 20 "$SONDE" dtrace -q -w -n '
syscall::getpid:return /pid == '"$bg"'/ { raise(SIGUSR1); }
pid'"$bg"':a.out:caught:entry { printf("%s %d\n", probemod, arg9); exit(0); }' 2>&1)
wait "$bg"
same "a fork not exec'd yet" "raised 9" "$out"
exit 0
