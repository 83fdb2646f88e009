# override()'s programs, golden (--dump=bpf), here where kprobes and
# fentry expand:
# - in a kprobe, bpf_override_return(ctx, rc) where it is called, the
#   rest of the block still running (Debian's kernels lack
#   CONFIG_BPF_KPROBE_OVERRIDE, so it cannot run: override_unsafe.sh);
# - in fentry, a BPF_MODIFY_RETURN program that returns the value: a
#   slot at the top of the frame, zeroed first (0: the function runs),
#   stored by override() and loaded at the one exit, which a false
#   predicate also reaches (it runs: fentry_override.sh).
. ./lib
for k in kprobe fentry; do
	echo "$k:security_file_open /comm == \"cat\"/ { override(-13); @k = count(); }" > "$work/o.bt"
	"$SONDE" --unsafe --dump=bpf "$work/o.bt" > "$work/out" 2> "$work/err" ||
		die "$k: --dump=bpf failed: $(show)"
	cmp -s "${k}_override.bpf" "$work/out" || {
		echo "$k: differs from ${k}_override.bpf (- expected, + actual):"
		diff -u "${k}_override.bpf" "$work/out" | tail -n +3
		exit 1
	}
done
