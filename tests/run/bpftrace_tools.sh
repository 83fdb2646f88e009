#!/bin/bash
# bpftrace 0.17's own tools that #include kernel headers and use their
# constants compile unchanged: runqlat (TASK_RUNNING), tcpdrop
# (SKB_DROP_REASON_*, AF_INET, AF_INET6), tcpaccept, tcpconnect,
# tcpretrans, tcplife (AF_*, TCP_* states).  The last four attach
# kprobes; on a kernel without them they are compiled with each kprobe
# moved onto a uprobe (same arguments, so the same constants and
# casts).  tcplife then still fails for its pointer map keys (@birth[$sk]),
# which are no preprocessor matter: only errors of the preprocessor and
# of names (E_PREPROC, E_IDENT, E_LEX, E_SYNTAX) fail here.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
tools=/usr/sbin
[[ -r $tools/runqlat.bt ]] || { echo "bpftrace's tools are not installed"; exit 77; }
fail=0
kprobes=$("$SONDE" --info | sed -n 's/^kprobe: //p')
bash=$(command -v bash)
for t in runqlat tcpdrop tcpaccept tcpconnect tcpretrans tcplife; do
	f=$tools/$t.bt
	[[ -r $f ]] || { echo "SKIP $t: not installed"; continue; }
	if [[ $kprobes != yes ]] && grep -qE '^k(ret)?probe:' "$f"; then
		sed -E "s#^k(ret)?probe:[a-z_0-9]+#u\\1probe:$bash:readline#" "$f" > "$dir/$t.bt"
		f=$dir/$t.bt
	fi
	if ! "$SONDE" --dump=bpf "$f" > /dev/null 2> "$dir/err"; then
		if grep -qE 'error\[E_(PREPROC|IDENT|LEX|SYNTAX)\]' "$dir/err" ||
		   [[ $t != tcplife ]]; then
			echo "FAIL $t:"
			head -20 "$dir/err"
			fail=1
		fi
	fi
done
exit $fail
