#!/bin/bash
# The unary '*' reads memory: in a uprobe, *uaddr("counter") and
# *(int32 *)arg0 read the process's globals (their values: 42, -7 and a
# uint16 of 65535); *arg1 reads a uint64 at an integer address; in a
# kernel context *task->stack reads the kernel's stack end magic
# through a void pointer and a cast; (*$t).pid reads a member of the
# struct a pointer points to; a NULL pointer reads as 0; kaddr() gives
# the address /proc/kallsyms lists, which ksym() names.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
long counter = 42;
int neg = -7;
unsigned short half = 65535;
unsigned long big = 0x1122334455667788UL;
__attribute__((noipa)) long peek(int *p, unsigned long *q) { return *p + (long)*q; }
int main(void) { return peek(&neg, &big) == 0; }
C
cc -O1 -o "$dir/p" "$dir/p.c" || exit 1
out=$("$SONDE" -q -c "$dir/p" -e "uprobe:$dir/p:peek {
	printf(\"%d %d %d %d %lx %d\n\", *uaddr(\"counter\"), *(int32 *)arg0,
	       *(uint16 *)uaddr(\"half\"), *(int8 *)arg0, *arg1, *(uint32 *)0);
}" 2>&1)
[[ "$out" == "42 -7 65535 -7 1122334455667788 0" ]] || { echo "uprobe: got: $out"; exit 1; }

# The kernel writes STACK_END_MAGIC at the end of every task's stack
# (task->stack with the thread_info in the task, as on x86-64).
out=$("$SONDE" -q -e 'BEGIN { $t = (struct task_struct *)curtask;
	printf("%x %x %d %d\n", *(uint64 *)$t->stack, *$t->stack,
	       (*$t).pid == pid, (*$t).real_parent->pid > 0);
	exit(); }' 2>&1)
[[ "$out" == "57ac6e9d 57ac6e9d 1 1" ]] || { echo "kernel: got: $out"; exit 1; }

sym=get_avenrun
addr=$(awk -v s=$sym '$3 == s { print $1; exit }' /proc/kallsyms)
[[ -n $addr ]] || { echo "no $sym in /proc/kallsyms"; exit 1; }
out=$("$SONDE" -q -e "BEGIN { printf(\"%016lx %s\n\", kaddr(\"$sym\"), ksym(kaddr(\"$sym\"))); exit(); }" 2>&1)
[[ "$out" == "$addr $sym" ]] || { echo "kaddr: got: $out, want $addr $sym"; exit 1; }
exit 0
