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
exit 0
