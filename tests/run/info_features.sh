#!/bin/bash
# --info: one "name: yes|no" line per feature, and the answers match
# what this kernel really does (uprobes and tracepoints work here).
out=$("$SONDE" --info) || { echo "exit $?"; exit 1; }
for k in bpf ringbuf btf kprobe kprobe_multi fentry fexit tp_btf uprobe uprobe_multi perf_event tracefs; do
	grep -qE "^$k: (yes|no)$" <<<"$out" || { echo "no '$k: yes|no' line: $out"; exit 1; }
done
grep -qx "bpf: yes" <<<"$out" || { echo "bpf: $out"; exit 1; }
grep -qx "uprobe: yes" <<<"$out" || { echo "uprobe: $out"; exit 1; }
# the kprobe answer agrees with whether a kprobe probe compiles
if "$SONDE" --dump=bpf -e 'kprobe:vfs_read { }' >/dev/null 2>&1; then want=yes; else want=no; fi
grep -qx "kprobe: $want" <<<"$out" || { echo "kprobe: want $want: $out"; exit 1; }
exit 0
