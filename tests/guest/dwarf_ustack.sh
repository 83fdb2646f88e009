# kernels: 6.1 6.12 7
# User stacks walked by the call frame information (bpf/cg_unwind.c)
# on each guest kernel: the verifier of 6.1 and of later kernels takes
# the walker, and a static program built -O2 -fomit-frame-pointer
# (/vm/progs/deepstack) gives every frame from leaf to main, through
# libc's qsort too, all calls under one map key.  The program starts
# blocked and is traced with -p, so its tables are there before it runs.
. ./lib
p=/vm/progs/deepstack
# run_traced ARG...: deepstack ARG... under sonde -p with $script
run_traced() {
	"$p" wait "$@" > "$work/trig" 2>&1 &
	_t=$!
	_i=0
	until grep -q '^waiting$' "$work/trig"; do
		_i=$((_i + 1))
		[ $_i -gt 200 ] && die "deepstack did not start: $(cat "$work/trig")"
		sleep 0.05
	done
	_prog=$(echo "$script" | sed "s/PID/$_t/")
	"$SONDE" -q -p $_t -e "BEGIN { printf(\"ready\\n\"); } $_prog" > "$work/out" 2> "$work/err" &
	_s=$!
	_i=0
	until grep -q '^ready$' "$work/out"; do
		_i=$((_i + 1))
		[ $_i -gt 400 ] && { kill -9 $_s $_t; die "sonde did not start: $(show)"; }
		sleep 0.05
	done
	kill -USR1 $_t
	wait $_t || die "deepstack failed: $(cat "$work/trig")"
	wait $_s || die "sonde failed: $(show)"
}
frames() {
	sed -n 's/^ *\([A-Za-z_][A-Za-z0-9_.]*\)+[0-9]*$/\1/p' "$work/out"
}
script='tracepoint:syscalls:sys_enter_getppid /pid == PID/ { @[ustack] = count(); }'
run_traced 100
stderr_clean
[ "$(grep -c '^@\[' "$work/out")" = 1 ] || die "not one key: $(show)"
grep -q '^\]: 100$' "$work/out" || die "not 100 calls: $(show)"
want="leaf d0 d1 d2 d3 d4 d5 d6 d7 d8 d9 d10 d11 main"
got=$(frames | head -14 | tr '\n' ' ')
[ "$got" = "$want " ] || die "frames: $got: $(show)"
run_traced 20 qsort
stderr_clean
for f in leaf cmp d0 d6 d11 main; do
	frames | grep -qx $f || die "qsort: no $f: $(show)"
done
# profile samples (NMI-less here: a guest's cpu-clock), stacks interned
# in a hash allocated as they come
script='profile:hz:499 /pid == PID/ { @[ustack] = count(); }'
run_traced 30000
stderr_clean
grep -q '^ *main+' "$work/out" || die "profile: no stack reaches main: $(show)"
