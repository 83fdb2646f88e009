# The kernel function one-liners of examples/one-liners.md (kprobe,
# kretprobe, fentry, fexit) compile and load in this kernel (--dry-run:
# the verifier accepts them).
. ./lib
n=0
while IFS= read -r line; do
	case $line in
	"    sonde -e 'k"*probe:*|"    sonde -e 'f"*:*) ;;
	*) continue ;;
	esac
	cmd=${line#    sonde }
	eval "set -- $cmd"
	"$SONDE" --dry-run "$@" > "$work/out" 2>&1 || die "does not load: sonde $cmd: $(cat "$work/out")"
	n=$((n + 1))
done < "$SONDE_ROOT/examples/one-liners.md"
[ "$n" -ge 5 ] || die "only $n kernel function one-liners found"
