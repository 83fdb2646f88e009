#!/bin/bash
# fentry:bpf[:ID]:NAME and fexit:bpf... (bpftrace 0.26): the functions of
# the running BPF programs that have BTF, by the names their BTF gives
# them: tests/progs/btfprog loads one, target_fn.  -l lists them as
# KIND:bpf:ID:NAME; a script expands to them (by name, by id and name,
# by wildcards), with probe and func naming them.  This host's kernel
# loads no tracing program, so the run ends in that sentence; the guest
# tier has BPF trampolines.
set -u
die() { echo "$*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
P=$SONDE_PROGS/btfprog
[[ -x $P ]] || die "$P not built (run make progs)"
"$P" wait 3 > id 2> err &
pid=$!
trap 'kill -USR1 $pid 2>/dev/null; wait $pid; rm -rf "$dir"' EXIT
for ((i = 0; i < 100; i++)); do grep -q waiting err && break; sleep 0.05; done
id=$(cat id)
[[ -n $id ]] || die "no program id: $(cat err)"

[[ $("$SONDE" -l 'fentry:bpf:*:target_fn') == "fentry:bpf:$id:target_fn" ]] || die "-l fentry"
[[ $("$SONDE" -l "fexit:bpf:$id:*") == "fexit:bpf:$id:target_fn" ]] || die "-l fexit by id"
[[ $("$SONDE" -l -e 'fentry:bpf:target_f* { }') == "fentry:bpf:$id:target_fn" ]] || die "-l script"
[[ $("$SONDE" -l -e "fexit:bpf:$id:target_fn { }") == "fexit:bpf:$id:target_fn" ]] || die "-l script by id"
"$SONDE" --dump=bpf -e "fexit:bpf:target_fn { printf(\"%s %s %d\n\", probe, func, retval); }" > dump || die "dump: $(cat dump)"
grep -q "^fexit:bpf:$id:target_fn: tracing" dump || die "dump: $(head -3 dump)"

if ! "$SONDE" --info | grep -q '^fentry: yes'; then
	"$SONDE" -e 'fentry:bpf:target_fn { @ = count(); }' > out 2> err2 && die "fentry ran here"
	grep -q "sonde: probe fentry:bpf:$id:target_fn: this kernel does not run fentry/fexit programs" err2 || die "host error: $(cat err2)"
fi

"$SONDE" -e 'fentry:bpf:no_such_function { }' > out 2> err2 && die "no_such_function ran"
grep -q "fentry: no running BPF program with BTF has a function no_such_function" err2 || die "missing: $(cat err2)"
"$SONDE" -e "fentry:bpf:$id:target_fn { print(args.ctx); }" > out 2> err2 && die "args ran"
grep -q "args is not available in fentry:bpf:$id:target_fn" err2 || die "args: $(cat err2)"
exit 0
