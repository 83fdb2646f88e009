#!/bin/bash
# sonde serve --metrics: the scripts of the metrics directory run from
# the start, each in its own process, and one endpoint serves all their
# maps, named sonde_SCRIPT_MAP, in the directory's order; a script that
# fails is logged and left out; stopping the service stops them
# (sonde-serve(8), docs/fleet.md).
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
SERVER=
cleanup() {
	[[ -n $SERVER ]] && kill -TERM "$SERVER" 2>/dev/null && wait "$SERVER"
	trace_cleanup
}
trap cleanup EXIT
mkdir md
cat > md/network.bt <<'EOF'
BEGIN { @sent["eth0"] = sum((uint64)1500); @sent["lo"] = sum((uint64)64); printf("ready\n"); }
interval:s:60 { exit(); }
EOF
cat > md/disk.bt <<'EOF'
BEGIN { @io = count(); @io = count(); @size = hist(4096); printf("ready\n"); }
interval:s:60 { exit(); }
EOF
echo 'BEGIN { this is not a script }' > md/zz-broken.bt
echo 'not a script, not .bt' > md/notes.txt
"$SONDE" serve --socket "$work/s.sock" --audit-file "$work/audit" \
	--metrics 127.0.0.1:0 --metrics-dir "$work/md" > serve.out 2> serve.err &
SERVER=$!
wait_for audit 'metrics at http://127.0.0.1:[0-9]+/metrics from 3 scripts' ||
	die "no metrics endpoint: $(cat audit serve.err)"
url=$(sed -n 's/.*metrics at \(http:[^ ]*\) from.*/\1/p' audit)
wait_for serve.out '^ready$' && wait_for audit 'zz-broken.bt ended: exit 1' ||
	die "the scripts did not start: $(cat serve.out serve.err audit)"
for ((i = 0; i < 40; i++)); do
	python3 "$SONDE_ROOT/tests/lib/http_get.py" "$url" > scrape || die "GET $url"
	grep -q sonde_network_sent scrape && break
	sleep 0.1
done
[[ "$(cat scrape)" == '200 text/plain; version=0.0.4; charset=utf-8
# HELP sonde_disk_io_total sonde map @io: count()
# TYPE sonde_disk_io_total counter
sonde_disk_io_total 2
# HELP sonde_disk_size sonde map @size: hist()
# TYPE sonde_disk_size histogram
sonde_disk_size_bucket{le="4095"} 0
sonde_disk_size_bucket{le="8191"} 1
sonde_disk_size_bucket{le="+Inf"} 1
sonde_disk_size_sum 4096
sonde_disk_size_count 1
# HELP sonde_network_sent_total sonde map @sent: sum()
# TYPE sonde_network_sent_total counter
sonde_network_sent_total{key="eth0"} 1500
sonde_network_sent_total{key="lo"} 64' ]] || die "scrape: $(cat scrape)"
if command -v promtool > /dev/null; then
	tail -n +2 scrape | promtool check metrics > lint 2>&1 || die "promtool: $(cat lint)"
fi
grep -q 'zz-broken.bt:1:' serve.err || die "the broken script's error is not on the service's stderr: $(cat serve.err)"
kill -TERM "$SERVER"
wait "$SERVER"
SERVER=
grep -q 'disk.bt ended' audit && grep -q 'network.bt ended' audit && grep -q 'stopped' audit ||
	die "the scripts did not stop with the service: $(cat audit)"
pgrep -f "$work/md" > /dev/null && die "a metrics script outlived the service"
# a bad address: said, before any script starts
"$SONDE" serve --socket "$work/s2.sock" --metrics 127.0.0.1:x --metrics-dir "$work/md" \
	> bad.out 2> bad.err && die "--metrics 127.0.0.1:x was taken"
[[ $(cat bad.err) == "sonde serve: --metrics takes PORT or HOST:PORT, not '127.0.0.1:x'" ]] ||
	die "bad address: $(cat bad.err)"
[[ -s bad.out ]] && die "a script ran: $(cat bad.out)"
[[ -e s2.sock ]] && die "the failed service left its socket"
exit 0
