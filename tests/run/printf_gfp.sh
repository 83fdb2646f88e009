#!/bin/bash
# printf's %gr (bpftrace 0.26): GFP flags named from this kernel's own
# table (tracepoint kmem:mm_page_alloc's print format), composite masks
# first; bits no name covers as hex; 0 as nothing; width and flags as
# %s applies them.  Then real flags of kmem:kmalloc events.
set -u
out=$("$SONDE" --dialect=0.26 -e 'BEGIN {
	printf("[%gr] [%gr] [%gr] [%gr] [%-12gr] [%gr]\n", 0xcc0, 0x820, 0xdc0,
	       0x100000000, 0x400, 0);
	exit();
}' 2>&1) || { echo "sonde failed: $out"; exit 1; }
want='Attached 1 probe
[GFP_KERNEL] [GFP_ATOMIC] [GFP_KERNEL|__GFP_ZERO] [0x100000000] [__GFP_DIRECT_RECLAIM] []'
[[ $out == "$want"* ]] || { diff <(echo "$want") <(echo "$out"); exit 1; }
out=$(timeout 20 "$SONDE" --dialect=0.26 -q -e 'tracepoint:kmem:kmalloc { printf("%gr\n", args.gfp_flags); if (++@n == 20) { exit(); } }' 2>&1 | head -20) ||
	{ echo "sonde failed: $out"; exit 1; }
bad=$(grep -cvE '^(__)?GFP_[A-Z_0-9]+(\|(__)?GFP_[A-Z_0-9]+)*(\|0x[0-9a-f]+)?$' <<< "$out")
[[ $bad == 0 ]] || { echo "not GFP names: $out"; exit 1; }
exit 0
