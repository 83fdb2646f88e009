#!/bin/bash
# A stack through a shared library: a uprobe on libc's getppid, and the
# tracepoint of the getppid system call, each called by the program's
# leaf_fn <- third_fn <- second_fn <- first_fn <- call_fn <- main.  The
# innermost frame is libc's (getppid or an alias such as __getppid, in
# libc's path in perf mode), then the program's own functions, leaf_fn
# first: the walk follows libc's call frame information.  With config
# dwarf_unwind = false (the kernel's frame-pointer stack, as bpftrace's)
# getppid, which builds no frame, hides its caller: the next frame is
# third_fn.  (comm == "p": the sh of -c calls getppid too, before it
# execs the program.)
set -u
. "$SONDE_ROOT/tests/lib/ustack.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "$*"; fail=1; }
off='\+[0-9]+$'
ustack_prog "$dir/p" || exit 1
libc=$(readlink -f "$(ldd "$dir/p" | awk '/libc\.so/ { print $3 }')")
[[ -n $libc ]] || { echo "no libc in ldd $dir/p"; exit 77; }
# check CONFIG SECOND: the stacks under CONFIG, SECOND the frame after
# getppid's
check() {
	local second=$2 f p out
	out=$("$SONDE" -q -c "$dir/p 2" -e "$1 uprobe:libc:getppid /pid == cpid && comm == \"p\"/ {
		@[ustack] = count(); @p[ustack(perf, 2)] = count();
		@s[usym(reg(\"ip\"))] = count(); }
	tracepoint:syscalls:sys_enter_getppid /pid == cpid && comm == \"p\"/ {
		@t[ustack(4)] = count(); }" 2>&1)
	local want=(_*getppid $second)
	[[ $second == leaf_fn ]] && want+=(third_fn second_fn) || want+=(second_fn first_fn)
	for k in @ @t; do
		f=$(frames "$out" $k)
		for i in 0 1 2 3; do
			grep -qE "^    ${want[i]}$off" <<< "$(sed -n $((i + 1))p <<< "$f")" ||
				{ bad "$1 $k: frame $((i + 1)) is not ${want[i]}: $f"; break; }
		done
	done
	grep -qE '^    call_fn\+[0-9]+$' <<< "$(frames "$out" @)" || bad "$1 @: no call_fn"
	grep -qE '^    main\+[0-9]+$' <<< "$(frames "$out" @)" || bad "$1 @: no main"
	[[ $(frames "$out" @t | wc -l) == 4 ]] || bad "$1 @t: not 4 frames"
	grep -qE '^@s\[_*getppid\]: 2$' <<< "$out" || bad "$1 usym(reg(\"ip\"))"
	p=$(frames "$out" @p)
	grep -qP "^\t[0-9a-f]+ _*getppid\+0 \(\Q$libc\E\)$" <<< "$(sed -n 1p <<< "$p")" &&
	grep -qP "^\t[0-9a-f]+ $second\+[0-9]+ \(\Q$dir/p\E\)$" <<< "$(sed -n 2p <<< "$p")" ||
		bad "$1 perf mode: $p"
	(( fail )) && printf '%s\n' "$out"
}
check "" leaf_fn
check "config = { dwarf_unwind = false }" third_fn
exit $fail
