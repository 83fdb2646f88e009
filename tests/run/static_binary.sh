#!/bin/bash
# make static: one executable, no shared libraries, at most 3.5 MB, that
# runs where nothing else is installed (an empty chroot for the
# compiler; the real machine for a trace).  It was 1.7 MB before libdw
# (DWARF for uprobes' args) came, with its backends for every
# architecture, the xz and bzip2 decompressors and static dlopen
# (debuginfod): 2.5 MB on 2026-11-25; 2.9 MB with D; 3.2 MB with
# libevent (core and evhttp, which --metrics serves with) on 2026-11-27.
set -u
bin=$SONDE_ROOT/build/sonde-static
if [[ ! -x $bin ]]; then
	# not built with sanitizers (ASAN=1 cannot link statically)
	grep -q fsanitize "$SONDE_ROOT/build/.flags" 2>/dev/null && { echo "sanitizer build"; exit 77; }
	echo "no $bin (make build/sonde-static)"; exit 1
fi
if ldd "$bin" >/dev/null 2>&1; then echo "ldd sees a dynamic executable"; ldd "$bin"; exit 1; fi
size=$(stat -c %s "$bin")
(( size <= 7 * 512 * 1024 )) || { echo "size $size > 3.5 MB"; exit 1; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
cp "$bin" "$root/sonde"
out=$(chroot "$root" /sonde --dump=bpf -e 'BEGIN { printf("%d\n", 1 + 2); exit(); }' 2>&1) ||
	{ echo "in an empty chroot: $out"; exit 1; }
grep -q "call ringbuf_output" <<<"$out" || { echo "no code in an empty chroot: $out"; exit 1; }
out=$("$bin" -q -e 'BEGIN { printf("static\n"); exit(); } tracepoint:syscalls:sys_enter_getppid { @ = count(); }' 2>&1)
[[ $out == static* ]] || { echo "run: $out"; exit 1; }
exit 0
