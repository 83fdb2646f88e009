#!/bin/bash
# This host's kernel rejects fentry/fexit programs: one sentence naming
# the missing feature, exit 1, and nothing runs.  (The guest tier,
# tools/vm-run, proves fentry where the kernel has it.)
out=$("$SONDE" -e 'BEGIN { printf("began\n"); } fentry:vfs_read { @ = count(); }' 2>&1)
rc=$?
if [[ $rc -eq 0 ]]; then
	echo "fentry works on this kernel: nothing to check here"; exit 77
fi
[[ $rc -eq 1 ]] || { echo "exit $rc: $out"; exit 1; }
grep -q "does not run fentry/fexit programs" <<<"$out" || { echo "unclear message: $out"; exit 1; }
grep -q began <<<"$out" && { echo "BEGIN ran: $out"; exit 1; }
exit 0
