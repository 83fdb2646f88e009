#!/bin/bash
# cat(fmt, args...) prints the file the format names when the event
# arrives, as it is (no newline added), at most BPFTRACE_CAT_BYTES_MAX
# bytes (10240); in JSON a "cat" message; with -o into the file; a file
# that cannot be opened is said on stderr.  Output compared with
# bpftrace 0.17's where both print it.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
printf 'one\ntwo\n' > f1
printf 'no newline' > f2
head -c 20000 /dev/zero | tr '\0' x > big
prog='BEGIN { cat("f1"); cat("f%d", 2); printf("|\n"); cat(str($1)); cat("big"); printf("\n"); exit(); }'
"$SONDE" -e "$prog" f1 > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
want="Attaching 1 probe...
one
two
no newline|
one
two
$(head -c 10240 big)

"
expect "$want"
if have_bpftrace; then
	bpftrace -e "$prog" f1 > bt.out 2> /dev/null
	# bpftrace 0.17 reads cat(str($1)) as the file "str"
	want=${want/|
one
two
/|
}
	expect "$want" bt.out
fi

BPFTRACE_CAT_BYTES_MAX=5 "$SONDE" -q -e 'BEGIN { cat("f1"); exit(); }' > out 2> err ||
	die "sonde failed: $(cat err)"
expect "one
t
"
"$SONDE" -q -o o.txt -e 'BEGIN { cat("f2"); exit(); }' > out 2> err || die "sonde -o failed: $(cat err)"
[[ -s out ]] && die "-o: stdout has $(cat out)"
expect "no newline
" o.txt

prog='BEGIN { cat("f2"); cat("nonexistent"); cat("f1"); exit(); }'
"$SONDE" -f json -e "$prog" > out 2> err || die "sonde failed: $(cat err)"
want='{"type": "attached_probes", "data": {"probes": 1}}
{"type": "cat", "data": "no newline"}
{"type": "cat", "data": ""}
{"type": "cat", "data": "one\ntwo\n"}'
expect "$want"
grep -q "nonexistent: No such file or directory" err || die "no error on stderr: $(cat err)"
if have_bpftrace; then
	bpftrace -f json -e "$prog" 2> /dev/null | sed '/^$/d' > bt.out
	expect "$want" bt.out
fi
