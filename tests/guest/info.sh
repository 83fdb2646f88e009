# sonde --info in the guest kernel: BPF, BTF and kprobes are there.
. ./lib
"$SONDE" --info > "$work/out" 2> "$work/err" || die "sonde --info failed: $(cat "$work/err")"
has_line "bpf: yes"
has_line "btf: yes"
has_line "kprobe: yes"
has_line "tracefs: yes"
has_line "uprobe_multi: no"	# Linux 6.6 brought it; this is 6.1
stderr_clean
