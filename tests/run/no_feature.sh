#!/bin/bash
# --no-feature uprobe_multi (bpftrace 0.26): a uprobe wildcard attaches
# one probe per function instead of one uprobe_multi link, and counts
# the same; an unknown feature is refused.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
script='uprobe:/bin/bash:read* { @ = count(); } BEGIN { exit(); }'
"$SONDE" -v --no-feature uprobe_multi -e "$script" > out 2> err || die "exit $?: $(cat err)"
n=$(grep -c '^sonde: attached uprobe:/bin/bash:read' err)
(( n > 3 )) || die "one probe per function expected, $n attached: $(cat err)"
"$SONDE" -v -e "$script" > out 2> err || die "multi: exit $?: $(cat err)"
if grep -q '^uprobe_multi: yes' <("$SONDE" --info); then
	[[ $(grep -c '^sonde: attached uprobe' err) == 1 ]] || die "one link expected: $(cat err)"
fi
"$SONDE" --no-feature kprobe_multi,kprobe_session -e 'BEGIN { exit(); }' > out 2> err || die "kprobe features: $(cat err)"
"$SONDE" --no-feature bogus -e 'BEGIN { exit(); }' > out 2> err && die "--no-feature bogus accepted"
[[ $(cat err) == "sonde: --no-feature: 'bogus' is not one of kprobe_multi, uprobe_multi, kprobe_session, syscall_mux, tracepoint_raw" ]] || die "bogus: $(cat err)"
echo ok
