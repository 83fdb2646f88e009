#!/bin/sh
# bench/guest_kprobes.sh: a kprobe wildcard over 1,000+ kernel functions
# through one kprobe_multi link against sonde's own one-link-per-function
# path (--no-feature kprobe_multi), in Debian's 6.12 guest kernel (which
# has fprobe; this host has no kprobes at all).  bench.sh runs it as
#   tools/vm-run -k 6.12 sh bench/guest_kprobes.sh
# for busybox sh in the guest; timings are under emulation (TCG), so
# only the ratio means something.  Prints bench.sh's rows: sonde's
# kprobe_multi figure, then the per-function one, and their ratio.
#   GUEST_RUNS=1    runs of each (medians; one per-function run takes
#                   about 100 s under emulation)
cd "$(dirname "$0")/.." || exit 1
SONDE=${SONDE:-./sonde}
runs=${GUEST_RUNS:-1}
# past the default limits (1,024 probes and programs), as a user
# attaching this many must say
export BPFTRACE_MAX_PROBES=4096 BPFTRACE_MAX_BPF_PROGS=4096
# Kernel functions quiet under a guest that runs nothing: networking's
# (only lo is up, and idle): 1,138 names in 6.12, of which about 1,050
# attach (tracefs lists a few twice, and some are refused).
pat=
n=0
for p in 'tcp_*' 'xfrm_*' 'inet_*' 'ip6_*' 'ipv6_*' 'netlink_*' 'udp_*' 'nf_*'; do
	[ "$n" -ge 1150 ] && break
	k=$(grep -c "^${p%\*}" /sys/kernel/tracing/available_filter_functions 2>/dev/null)
	[ "${k:-0}" -gt 0 ] || continue
	pat=${pat:+$pat,}kprobe:$p
	n=$((n + k))
done
[ -n "$pat" ] || { echo "guest_kprobes: no kernel functions to probe"; exit 1; }

# now: the guest's uptime in ms
now() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "-" }'; }
# one run: "attached_ms detached_ms probes": start to BEGIN's line, and
# the detach sonde -v reports
one() {
	t0=$(now)
	"$SONDE" -v "$@" -e "$pat"' { @[probe] = count(); } BEGIN { printf("attached %d\n", 1); exit(); }' \
		> /tmp/gk.out 2> /tmp/gk.err
	t1=$(now)
	det=$(sed -n 's/^sonde: detached .* in \([0-9.]*\) s$/\1/p' /tmp/gk.err | awk '{ printf "%d\n", $1 * 1000 }')
	probes=$(sed -n 's/^Attach[a-z]* \([0-9]*\) probes.*/\1/p' /tmp/gk.out /tmp/gk.err | head -n 1)
	echo "$((t1 - t0 - ${det:-0})) ${det:--} ${probes:--}"
}
: > /tmp/gk.m; : > /tmp/gk.p
i=0
while [ $i -lt "$runs" ]; do
	one >> /tmp/gk.m
	one --no-feature kprobe_multi >> /tmp/gk.p
	i=$((i + 1))
done
grep -q 'functions)' /tmp/gk.err && { echo "guest_kprobes: --no-feature kprobe_multi merged"; exit 1; }
probes=$(awk '{ print $3 }' /tmp/gk.m | head -n 1)
ma=$(awk '{ print $1 }' /tmp/gk.m | median); pa=$(awk '{ print $1 }' /tmp/gk.p | median)
md=$(awk '{ print $2 }' /tmp/gk.m | median); pd=$(awk '{ print $2 }' /tmp/gk.p | median)
ratio() { awk -v s="$1" -v b="$2" 'BEGIN { if (b == "-" || b == 0 || s == "-") print "-"; else printf "%.3g\n", s / b }'; }
echo "guest $(uname -r): $probes kernel functions ($pat)"
printf '%-56s %10s %10s %9s\n' "guest: kprobe wildcard, start to BEGIN (ms)" "$ma" "$pa" "$(ratio "$ma" "$pa")"
printf '%-56s %10s %10s %9s\n' "  then exit: detach (ms)" "$md" "$pd" "$(ratio "$md" "$pd")"
