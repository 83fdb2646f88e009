#!/bin/bash
# --info: one "name: yes|no" line per feature, and the answers match
# what this kernel really does (uprobes and tracepoints work here).
out=$("$SONDE" --info) || { echo "exit $?"; exit 1; }
for k in bpf ringbuf btf kprobe kprobe_multi fentry fexit tp_btf uprobe uprobe_multi uprobe_ref_ctr perf_event tracefs; do
	grep -qE "^$k: (yes|no)$" <<<"$out" || { echo "no '$k: yes|no' line: $out"; exit 1; }
done
grep -qx "bpf: yes" <<<"$out" || { echo "bpf: $out"; exit 1; }
grep -qx "uprobe: yes" <<<"$out" || { echo "uprobe: $out"; exit 1; }
# the build: sonde's version and its libraries; the kernel
grep -qE '^version: sonde [0-9.]+, libbpf [0-9]+\.[0-9]+, libelf 0\.[0-9]+, zlib [0-9.]+$' <<<"$out" ||
	{ echo "no version line: $out"; exit 1; }
grep -qx "kernel: $(uname -r) $(uname -m)" <<<"$out" || { echo "no kernel line: $out"; exit 1; }
# uprobe_multi links came with Linux 6.6
IFS=. read -r major minor _ <<<"$(uname -r)"
if (( major > 6 || (major == 6 && minor >= 6) )); then want=yes; else want=no; fi
grep -qx "uprobe_multi: $want" <<<"$out" || { echo "uprobe_multi: want $want: $out"; exit 1; }
# the kprobe answer agrees with whether a kprobe probe compiles
if "$SONDE" --dump=bpf -e 'kprobe:vfs_read { }' >/dev/null 2>&1; then want=yes; else want=no; fi
grep -qx "kprobe: $want" <<<"$out" || { echo "kprobe: want $want: $out"; exit 1; }

# then bpftrace 0.17's sections, with the same names, for the tools
# that parse bpftrace --info; every answer is yes or no and measured
for s in System Build 'Kernel helpers' 'Kernel features' 'Map types' 'Probe types'; do
	grep -qx "$s" <<<"$out" || { echo "no section '$s': $out"; exit 1; }
done
for k in probe_read probe_read_str probe_read_user probe_read_user_str probe_read_kernel \
	probe_read_kernel_str get_current_cgroup_id send_signal override_return get_boot_ns \
	dpath skboutput 'Loop support' btf 'map batch' 'uprobe refcount' hash 'percpu hash' \
	array 'percpu array' stack_trace perf_event_array kprobe tracepoint perf_event kfunc \
	iter:task iter:task_file kprobe_multi raw_tp_special 'libdw \(DWARF support\)'; do
	grep -qE "^  $k: (yes|no)$" <<<"$out" || { echo "no '  $k: yes|no' line: $out"; exit 1; }
done
grep -qx "  Instruction limit: 1000000" <<<"$out" || { echo "instruction limit: $out"; exit 1; }
grep -qx "  Arch: $(uname -m)" <<<"$out" || { echo "arch: $out"; exit 1; }
# the answers agree with sonde itself: iter:task runs here, tracepoints
# attach, send_signal and probe_read_user are what signal() and str() use
grep -qx "  tracepoint: yes" <<<"$out" || { echo "tracepoint: $out"; exit 1; }
if "$SONDE" -q -e 'iter:task { @n = count(); } END { }' > /dev/null 2>&1; then want=yes; else want=no; fi
grep -qx "  iter:task: $want" <<<"$out" || { echo "iter:task: want $want: $out"; exit 1; }
grep -qx "  send_signal: yes" <<<"$out" || { echo "send_signal: $out"; exit 1; }
grep -qx "  probe_read_user: yes" <<<"$out" || { echo "probe_read_user: $out"; exit 1; }
exit 0
