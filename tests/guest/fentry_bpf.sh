# fentry:bpf:NAME and fexit:bpf:ID:NAME (bpftrace 0.26): trampolines on
# another BPF program's function.  /vm/progs/btfprog (tests/progs, built
# static by tools/vm-run) loads target_fn, a raw tracepoint program
# with BTF, prints its id, and once SIGUSR1 comes runs it 4 times with
# BPF_PROG_TEST_RUN: fentry and fexit each count 4, probe names the
# program's id, retval is its 7.
. ./lib
P=/vm/progs/btfprog
[ -x $P ] || skip "no $P"
$P wait 4 > "$work/id" 2> "$work/perr" &
bp=$!
i=0
while ! grep -q waiting "$work/perr" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
id=$(cat "$work/id")
[ -n "$id" ] || die "no program id: $(cat "$work/perr")"
[ "$("$SONDE" -l 'fentry:bpf:*:target_fn')" = "fentry:bpf:$id:target_fn" ] || die "-l"
# BEGIN runs once every probe is attached: "Attaching" is printed
# before, and a run of the program then may come too early
timeout -s KILL 30 "$SONDE" -e "BEGIN { printf(\"ready\\n\"); }
fentry:bpf:target_fn { @[probe] = count(); }
fexit:bpf:$id:target_f* { @ret[func, retval] = count(); @n++; if (@n == 4) { exit(); } }" \
	> "$work/out" 2> "$work/err" &
tp=$!
i=0
while ! grep -q ready "$work/out" 2>/dev/null && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
kill -USR1 $bp
wait $bp || die "btfprog failed: $(cat "$work/perr")"
wait $tp || { show; die "sonde failed"; }
expect "Attaching 3 probes...
ready


@[fentry:bpf:$id:target_fn]: 4
@n: 4
@ret[target_fn, 7]: 4"
stderr_clean
exit 0
