#!/bin/bash
# The guest runner's promise, as the issue states it: tools/vm-run runs
# a command in the guest kernel, which has kprobes, and returns its
# status; `kprobe:vfs_read { @ = count(); }` there counts something.
set -u
if ! command -v qemu-system-x86_64 >/dev/null; then
	[[ ${SONDE_REQUIRE_BPF:-} == 1 ]] && { echo "qemu-system-x86_64 missing"; exit 1; }
	echo "no qemu-system-x86_64"; exit 77
fi
cd "$SONDE_ROOT" || exit 1
out=$(timeout 280 tools/vm-run ./sonde -e 'kprobe:vfs_read { @ = count(); } interval:ms:500 { exit(); }' 2>&1)
rc=$?
[[ $rc -eq 0 ]] || { echo "vm-run exit $rc: $out" | tail -20; exit 1; }
n=$(sed -n 's/^@: \([0-9]*\)$/\1/p' <<<"$out")
[[ -n $n ]] && (( n > 0 )) || { echo "no count: $out" | tail -20; exit 1; }
# and the command's exit status comes back
timeout 280 tools/vm-run sh -c 'exit 7' >/dev/null 2>&1
rc=$?
[[ $rc -eq 7 ]] || { echo "exit status $rc, want 7"; exit 1; }
exit 0
