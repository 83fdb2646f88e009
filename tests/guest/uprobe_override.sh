# kernels: 6.1 7
# override() in uprobes: where uprobe programs may write registers
# (Linux 7.0), an entry probe makes the function return at once (ax the
# value, ip the return address, sp past it) and a return probe replaces
# what it returned: alloc_buffer() and libc's malloc() return NULL to
# the traced program; elsewhere (6.1) the compile says which kernel is
# needed.
. ./lib
p=/vm/progs/allocbuf
case $(uname -r) in
6.1.*)
	"$SONDE" --unsafe -e "uprobe:$p:alloc_buffer { override(0); }" -c "$p" \
		> "$work/out" 2> "$work/err" && die "6.1 overrode: $(show)"
	grep -q "error\[E_CONTEXT\]: override() in uprobe:$p:alloc_buffer needs a kernel whose uprobe programs may write registers (Linux 7.0); this one cannot" "$work/err" ||
		die "no reason: $(show)"
	exit 0 ;;
esac
# entry: the function does not run (its malloc neither: @m counts 0)
trace "$p 2" "uprobe:$p:alloc_buffer { override(0); @a = count(); } uprobe:$p:malloc /arg0 == 64/ { @m = count(); }" --unsafe
expect "Attaching 2 probes...
alloc_buffer: NULL
alloc_buffer: NULL
malloc: ok


@a: 2
@m: 0"
# return: the function ran (its malloc did), its result replaced
trace "$p 1" "uretprobe:$p:alloc_buffer { override(0); } uprobe:$p:malloc /arg0 == 64/ { @m = count(); }" --unsafe
expect "Attaching 2 probes...
alloc_buffer: NULL
malloc: ok


@m: 1"
# libc's malloc, for one size only
trace "$p 1" "uprobe:$p:malloc /arg0 == 32/ { override(0); }" --unsafe
expect "Attaching 1 probe...
alloc_buffer: ok
malloc: NULL

"
# sonde inject on a user function: one call in two
timeout -s KILL 30 "$SONDE" inject --fail "$p:alloc_buffer" --return 0 --every 2 -c "$p 4" \
	> "$work/out" 2> "$work/err" < /dev/null || die "sonde inject: exit $?: $(show)"
expect "alloc_buffer: ok
alloc_buffer: NULL
alloc_buffer: ok
alloc_buffer: NULL
malloc: ok
sonde inject: $p:alloc_buffer (uprobe:$p:alloc_buffer): 2 of 4 matching calls made to return 0"
