#!/bin/bash
# sonde dtrace's copyin(addr, n) (n bytes of the process's memory in
# scratch, a pointer indexed like any), copyinto(addr, n, dest), and
# the syscall provider's args[]: each argument typed as the system call
# declares it (execve's argv a char **, read through), a return's
# args[0] its value; a bad address is a fault, not a crash.
. "$SONDE_ROOT/tests/lib/trace.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo hello > "$tmp/f"

out=$(timeout 20 "$SONDE" dtrace -q -c "/bin/cat $tmp/f" -n '
syscall::execve:entry /pid == $target/ {
	printf("argv %s %s\n", basename(copyinstr((uintptr_t)args[1][0])),
	    copyinstr((uintptr_t)args[1][1]) == "'"$tmp/f"'" ? "file" : "?");
}
syscall::openat:entry /pid == $target && copyinstr(args[1]) == "'"$tmp/f"'"/ {
	this->s = (char *)copyin((uintptr_t)args[1], 4);
	printf("copyin %c%c%c%c\n", this->s[0], this->s[1], this->s[2], this->s[3]);
	this->d = (char *)alloca(4);
	copyinto((uintptr_t)args[1] + 1, 3, this->d);
	printf("copyinto %c%c%c\n", this->d[0], this->d[1], this->d[2]);
	self->in = 1;
}
syscall::openat:return /self->in/ { printf("fd %d\n", args[0] > 2); self->in = 0; }
syscall::read:entry /pid == $target && args[2] > 0 && !done/ { self->buf = args[1]; }
syscall::read:return /self->buf && args[0] == 6 && !done/ {
	this->b = (char *)copyin(self->buf, 5);
	printf("read %c%c%c%c%c\n", this->b[0], this->b[1], this->b[2], this->b[3], this->b[4]);
	done = 1;
}' 2>&1 | grep -v '^$')
same "copyin, copyinto, syscall args" "argv cat file
copyin ${tmp:0:4}
copyinto ${tmp:1:3}
fd 1
read hello" "$out"

out=$(timeout 20 "$SONDE" dtrace -q -c /bin/true -n '
syscall::execve:entry /pid == $target/ { this->p = (char *)copyin(8, 4); printf("not reached\n"); }
syscall::execve:entry /pid == $target/ { printf("next clause\n"); }' 2>&1)
grep -q 'invalid address (0x8)' <<< "$out" || { echo "FAIL copyin of a bad address: $out"; exit 1; }
grep -q 'not reached' <<< "$out" && { echo "FAIL the clause went on: $out"; exit 1; }
grep -q 'next clause' <<< "$out" || { echo "FAIL the next clause did not run: $out"; exit 1; }
exit 0
