#!/bin/bash
# config show_debug_info = true: user frames with their source file and
# line, and the functions inlined at an address as frames of their own,
# as bpftrace 0.26 prints them (catalog/srcinfo.c): inner is inlined
# into middle, middle into outer; at libc's getppid, called by inner,
# the stack is getppid, [inlined] inner@inl.c:4, [inlined] middle@inl.c:8
# (the call of inner), outer+N@inl.c:12 (the call of middle), main; in
# perf mode the inlined frames are "ADDR NAME (inlined)" at outer's
# address, without lines.  Without the config: the plain stack.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > inl.c <<'C'
#include <unistd.h>
static inline __attribute__((always_inline)) long inner(long x)
{
	return getppid() + x;
}
static inline __attribute__((always_inline)) long middle(long x)
{
	return inner(x) * 3;
}
__attribute__((noinline)) long outer(long x)
{
	return middle(x) + 1;
}
int main(void)
{
	return outer(1) == 5;
}
C
cc -O2 -g -o inl inl.c || die "cc"
s='uprobe:libc:getppid /pid == cpid/ { @[ustack(4)] = count(); @p[ustack(perf, 4)] = count(); }'
"$SONDE" -q -c ./inl -e "config = { show_debug_info = true } $s" > out 2> err || die "$(cat err)"
want="    [inlined] inner@$work/inl.c:4
    [inlined] middle@$work/inl.c:8"
got=$(grep -A2 '^    getppid+0' out | sed 1d)
[[ $got == "$want" ]] || die "inlined frames:
$got
not
$want
$(cat out)"
grep -qE "^    outer\+[0-9]+@$work/inl\.c:12$" out || die "outer: $(cat out)"
grep -qE "^    main\+[0-9]+@$work/inl\.c:16$" out || die "main: $(cat out)"
grep -qE $'^\t[0-9a-f]+ inner \\(inlined\\)$' out &&
grep -qE $'^\t[0-9a-f]+ middle \\(inlined\\)$' out &&
grep -qE $'^\t[0-9a-f]+ outer\\+[0-9]+ \\('"$work"$'/inl\\)$' out || die "perf mode: $(cat out)"
# the same addresses for the inlined frames and outer
[[ $(grep -E $'^\t[0-9a-f]+ (inner|middle|outer)' out | awk '{ print $1 }' | sort -u | wc -l) == 1 ]] ||
	die "perf mode addresses: $(cat out)"
"$SONDE" -q -c ./inl -e "$s" > out 2> err || die "$(cat err)"
grep -q '@/\|inlined' out && die "without show_debug_info: $(cat out)"
grep -qE '^    outer\+[0-9]+$' out || die "plain: $(cat out)"
echo ok
