#!/bin/bash
# A stack through a shared library: a uprobe on libc's getppid, and the
# tracepoint of the getppid system call, each called by the program's
# leaf_fn <- third_fn <- second_fn <- first_fn <- call_fn <- main.  The
# innermost frame is libc's (getppid or an alias such as __getppid, in
# libc's path in perf mode), then the program's own functions.  getppid
# builds no frame, so its caller leaf_fn is not in the frame-pointer
# chain: the next frame is third_fn, as in bpftrace.  (comm == "p":
# the sh of -c calls getppid too, before it execs the program.)
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
out=$("$SONDE" -q -c "$dir/p 2" -e "uprobe:libc:getppid /pid == cpid && comm == \"p\"/ {
		@[ustack] = count(); @p[ustack(perf, 2)] = count();
		@s[usym(reg(\"ip\"))] = count(); }
	tracepoint:syscalls:sys_enter_getppid /pid == cpid && comm == \"p\"/ {
		@t[ustack(4)] = count(); }" 2>&1)
for k in @ @t; do
	f=$(frames "$out" $k)
	grep -qE "^    _*getppid$off" <<< "$(sed -n 1p <<< "$f")" &&
	grep -qE "^    third_fn$off" <<< "$(sed -n 2p <<< "$f")" &&
	grep -qE "^    second_fn$off" <<< "$(sed -n 3p <<< "$f")" &&
	grep -qE "^    first_fn$off" <<< "$(sed -n 4p <<< "$f")" || bad "$k: $f"
done
grep -qE '^    call_fn\+[0-9]+$' <<< "$(frames "$out" @)" || bad "@: no call_fn"
grep -qE '^    main\+[0-9]+$' <<< "$(frames "$out" @)" || bad "@: no main"
[[ $(frames "$out" @t | wc -l) == 4 ]] || bad "@t: not 4 frames"
grep -qE '^@s\[_*getppid\]: 2$' <<< "$out" || bad "usym(reg(\"ip\"))"
p=$(frames "$out" @p)
grep -qP "^\t[0-9a-f]+ _*getppid\+0 \(\Q$libc\E\)$" <<< "$(sed -n 1p <<< "$p")" &&
grep -qP "^\t[0-9a-f]+ third_fn\+[0-9]+ \(\Q$dir/p\E\)$" <<< "$(sed -n 2p <<< "$p")" ||
	bad "perf mode: $p"
(( fail )) && printf '%s\n' "$out"
exit $fail
