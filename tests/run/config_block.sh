#!/bin/bash
# The config block (bpftrace 0.26): each variable sonde applies changes
# what the script does, in any of the three spellings of its name, and
# the environment variable of the same config wins over the block.
set -u
fail=0
bad() { echo "$1"; fail=1; }
run() {	# SCRIPT [ENV...]: stdout and stderr of sonde -q
	local s=$1
	shift
	env "$@" "$SONDE" -q -e "$s" 2>&1
}
s='BEGIN { printf("%s|\n", str("hello world, long")); exit(); }'
# max_strlen: str() keeps max_strlen - 1 bytes and the NUL
out=$(run "config = { max_strlen = 8 } $s")
[[ $out == 'hello w|' ]] || bad "max_strlen = 8: [$out]"
out=$(run "config = { MAX_STRLEN = 4; } $s")
[[ $out == 'hel|' ]] || bad "MAX_STRLEN = 4: [$out]"
out=$(run "config = { BPFTRACE_MAX_STRLEN = 6 } $s")
[[ $out == 'hello|' ]] || bad "BPFTRACE_MAX_STRLEN = 6: [$out]"
# the environment wins, in its new and its old spelling
out=$(run "config = { max_strlen = 8 } $s" BPFTRACE_MAX_STRLEN=12)
[[ $out == 'hello world|' ]] || bad "env BPFTRACE_MAX_STRLEN=12: [$out]"
out=$(run "config = { max_strlen = 8 } $s" BPFTRACE_STRLEN=3)
[[ $out == 'he|' ]] || bad "env BPFTRACE_STRLEN=3: [$out]"
# C definitions may come before the block
out=$(run "struct s { int a; } config = { max_strlen = 3 } $s")
[[ $out == 'he|' ]] || bad "after a struct: [$out]"

# str_trunc_trailer (0.26): printf's %s of a string that fills
# max_strlen ends with the trailer, ".." by default; none in 0.17's
# dialect (the tests' default), none when set empty, a number's digits
out=$(run "config = { max_strlen = 8 } $s" SONDE_DIALECT=0.26)
[[ $out == 'hello w..|' ]] || bad "trailer by default: [$out]"
out=$(run "config = { max_strlen = 8; str_trunc_trailer = \"~\" } $s" SONDE_DIALECT=0.26)
[[ $out == 'hello w~|' ]] || bad "str_trunc_trailer = ~: [$out]"
out=$(run "config = { max_strlen = 8; str_trunc_trailer = 0 } $s" SONDE_DIALECT=0.26)
[[ $out == 'hello w0|' ]] || bad "str_trunc_trailer = 0: [$out]"
out=$(run "config = { max_strlen = 8; str_trunc_trailer = \"~\" } $s" SONDE_DIALECT=0.26 BPFTRACE_STR_TRUNC_TRAILER=)
[[ $out == 'hello w|' ]] || bad "env BPFTRACE_STR_TRUNC_TRAILER empty: [$out]"
out=$(run "config = { max_strlen = 8 } $s" SONDE_DIALECT=0.26 BPFTRACE_STR_TRUNC_TRAILER=_xxx)
[[ $out == 'hello w_xxx|' ]] || bad "env BPFTRACE_STR_TRUNC_TRAILER=_xxx: [$out]"
out=$(run 'config = { max_strlen = 8 } BEGIN { printf("%s|%s|\n", str("hello w"), str("short")); exit(); }' SONDE_DIALECT=0.26)
[[ $out == 'hello w..|short|' ]] || bad "a string short of max_strlen: [$out]"
out=$(run "config = { max_strlen = 8 } $s")
[[ $out == 'hello w|' ]] || bad "no trailer in 0.17: [$out]"

# print_maps_on_exit = false: no maps at the end; print() still prints
m='BEGIN { @a = 1; @b[2] = 3; print(@a); exit(); }'
out=$(run "config = { print_maps_on_exit = false } $m")
[[ $out == '@a: 1' ]] || bad "print_maps_on_exit = false: [$out]"
out=$(run "config = { print_maps_on_exit = true } $m")
[[ $out == $'@a: 1\n\n\n@a: 1\n@b[2]: 3' ]] || bad "print_maps_on_exit = true: [$out]"
out=$(run "config = { print_maps_on_exit = false } $m" BPFTRACE_PRINT_MAPS_ON_EXIT=true)
[[ $out == $'@a: 1\n\n\n@a: 1\n@b[2]: 3' ]] || bad "env wins over print_maps_on_exit: [$out]"

# max_map_keys: a map holds no more keys than that
out=$(run 'config = { max_map_keys = 2 } BEGIN { @[1] = 1; @[2] = 2; @[3] = 3; exit(); }' | grep -c '^@\[')
[[ $out == '2' ]] || bad "max_map_keys = 2: [$out]"

# max_cat_bytes: cat() prints at most that much
f=$(mktemp)
trap 'rm -f "$f"' EXIT
printf 'abcdefghij' > "$f"
out=$(run "config = { max_cat_bytes = 4 } BEGIN { cat(\"$f\"); printf(\"|\\n\"); exit(); }")
[[ $out == 'abcd|' ]] || bad "max_cat_bytes = 4: [$out]"

# max_probes and max_bpf_progs: the limits, in bpftrace's words
out=$(run 'config = { max_probes = 1 } BEGIN { exit(); } END { }')
[[ $out == *"exceeds the current limit of 1 probes"* ]] || bad "max_probes = 1: [$out]"
out=$(run 'config = { max_bpf_progs = 1 } BEGIN { exit(); } END { }')
[[ $out == *"exceeds the current limit of 1."* ]] || bad "max_bpf_progs = 1: [$out]"

# stack_mode: the format of kstack without a mode
k='tracepoint:sched:sched_process_exec { printf("%s\nE\n", kstack(2)); exit(); }'
trigger() { while :; do bash -c true; sleep 0.05; done; }
trigger & tpid=$!
trap 'kill $tpid 2>/dev/null; rm -f "$f"' EXIT
out=$(run "config = { stack_mode = perf } $k" | awk 'NF && $0 != "E"' | head -n 2)
[[ $(wc -l <<< "$out") == 2 ]] && ! grep -qvP '^\t[0-9a-f]+ [A-Za-z0-9_.]+\+[0-9]+$' <<< "$out" ||
	bad "stack_mode = perf: [$out]"
out=$(run "config = { stack_mode = raw } $k" | awk 'NF && $0 != "E"' | head -n 2)
[[ $(wc -l <<< "$out") == 2 ]] && ! grep -qvE '^[0-9a-f]{8,16}$' <<< "$out" ||
	bad "stack_mode = raw: [$out]"
out=$(run "config = { stack_mode = raw } $k" BPFTRACE_STACK_MODE=perf | awk 'NF && $0 != "E"' | head -n 2)
! grep -qvP '^\t[0-9a-f]+ [A-Za-z0-9_.]+\+[0-9]+$' <<< "$out" ||
	bad "env BPFTRACE_STACK_MODE=perf over stack_mode = raw: [$out]"

# the accepted ones: checked, no behaviour yet
out=$(run 'config = { cache_user_symbols = PER_PID; log_size = 100; license = "GPL"; lazy_symbolication = true; show_debug_info = false; on_stack_limit = 64; str_trunc_trailer = ".."; missing_probes = warn; unstable_tseries = enable; unstable_dw_ustack = error; cpp_demangle = false; perf_rb_pages = 64 } BEGIN { printf("ok\n"); exit(); }')
[[ $out == ok ]] || bad "accepted variables: [$out]"
# an environment value is checked as the block's is
out=$(run 'BEGIN { exit(); }' BPFTRACE_PRINT_MAPS_ON_EXIT=maybe)
[[ $out == 'sonde: BPFTRACE_PRINT_MAPS_ON_EXIT=maybe is not true or false' ]] || bad "env maybe: [$out]"
out=$(run 'BEGIN { exit(); }' BPFTRACE_MISSING_PROBES=never)
[[ $out == 'sonde: BPFTRACE_MISSING_PROBES=never is not one of error, warn, ignore' ]] || bad "env never: [$out]"
exit $fail
