#!/bin/bash
# BPFTRACE_BTF: kernel types come from the BTF file it names instead of
# /sys/kernel/btf/vmlinux: a struct that only a small file's BTF holds
# (gcc -gbtf) is known, with its size; with the kernel's BTF copied to
# a file, the kernel's structs are still known; a file without BTF
# knows no kernel type.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
size='BEGIN { printf("%d\n", sizeof(struct sonde_btf_t)); exit(); }'
task='BEGIN { printf("%d\n", sizeof(struct task_struct)); exit(); }'
want_task=$("$SONDE" -q -e "$task" | head -1)
[[ $want_task =~ ^[0-9]+$ ]] || { echo "no task_struct size: $want_task"; exit 1; }
if printf 'struct sonde_btf_t { int a; long b; char c[10]; };\nstruct sonde_btf_t v;\n' > "$dir/t.c" &&
   gcc -gbtf -c -o "$dir/t.o" "$dir/t.c" 2>/dev/null; then
	got=$(BPFTRACE_BTF=$dir/t.o "$SONDE" -q -e "$size" 2>&1 | head -1)
	[[ $got == 32 ]] || { echo "file's struct: '$got', want 32"; fail=1; }
	"$SONDE" -q -e "$size" > /dev/null 2>&1 && { echo "struct sonde_btf_t known without BPFTRACE_BTF"; fail=1; }
fi
cp /sys/kernel/btf/vmlinux "$dir/vmlinux"
got=$(BPFTRACE_BTF=$dir/vmlinux "$SONDE" -q -e "$task" 2>&1 | head -1)
[[ $got == "$want_task" ]] || { echo "copy: '$got', want $want_task"; fail=1; }
got=$(BPFTRACE_BTF=/dev/null "$SONDE" -q -e "$task" 2>&1 | head -1)
[[ $got == "-e:1:24: error[E_TYPE]: unknown type 'struct task_struct'" ]] || { echo "/dev/null: '$got'"; fail=1; }
exit $fail
