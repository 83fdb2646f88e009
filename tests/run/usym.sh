#!/bin/bash
# usym(addr): a function's name alone (no offset), symbolized in the
# process that took it, after that process exited: the function pointer
# call_fn receives (first_fn), in a map key, a tuple, a variable, a map
# value and printf; an address nothing maps prints as hex.  C++ names
# are demangled, in usym and ustack, as bpftrace 0.17 prints them, unless
# BPFTRACE_NO_CPP_DEMANGLE=1; BPFTRACE_NO_USER_SYMBOLS=1 prints addresses.
set -u
. "$SONDE_ROOT/tests/lib/ustack.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "$*"; fail=1; }
ustack_prog "$dir/p" || exit 1
out=$("$SONDE" -q -c "$dir/p 3" -e "uprobe:$dir/p:call_fn {
	@[usym(arg0)] = count(); @t[usym(arg0), 7] = count();
	\$u = usym(arg0); @v = \$u; @z = usym(16);
	printf(\"<%s> <%s>\\n\", \$u, usym(arg0 + 5)); }" 2>&1)
want='<first_fn> <first_fn>
<first_fn> <first_fn>
<first_fn> <first_fn>


@[first_fn]: 3
@t[first_fn, 7]: 3
@v: first_fn
@z: 0x10'
[[ $out == "$want" ]] || bad "got:
$out
want:
$want"
# BPFTRACE_NO_USER_SYMBOLS=1: addresses, in usym and ustack
out=$(BPFTRACE_NO_USER_SYMBOLS=1 "$SONDE" -q -c "$dir/p 1" -e "uprobe:$dir/p:call_fn {
	@[usym(arg0)] = count(); @s[ustack(1)] = count(); }" 2>&1)
want='

@\[0x[0-9a-f]+\]: 1
@s\[
    0x[0-9a-f]+
\]: 1'
[[ $out =~ ^$want$ ]] || bad "BPFTRACE_NO_USER_SYMBOLS=1: got:
$out
want (regex):
$want"
if command -v c++ > /dev/null; then
	cat > "$dir/k.cc" <<'C'
#include <unistd.h>
namespace ns { struct K { __attribute__((noinline)) int f(int x); }; }
__attribute__((noinline)) int ns::K::f(int x) { return (int)getppid() + x; }
template <class T> __attribute__((noinline)) int tf(T x) { ns::K k; return k.f((int)x) + 1; }
int main() { return tf<long>(3) == 0; }
C
	c++ -O1 -fno-omit-frame-pointer -fcf-protection=none -o "$dir/k" "$dir/k.cc" || exit 1
	out=$("$SONDE" -q -c "$dir/k" -e "uprobe:$dir/k:_ZN2ns1K1fEi+4 {
		@[ustack(2)] = count(); @s[usym(reg(\"ip\"))] = count(); }" 2>&1)
	want='

@\[
    ns::K::f\(int\)\+4
    int tf<long>\(long\)\+[0-9]+
\]: 1
@s\[ns::K::f\(int\)\]: 1'
	[[ $out =~ ^$want$ ]] || bad "C++: got:
$out
want (regex):
$want"
	# BPFTRACE_NO_CPP_DEMANGLE=1: the names as the symbol table has them
	out=$(BPFTRACE_NO_CPP_DEMANGLE=1 "$SONDE" -q -c "$dir/k" -e "uprobe:$dir/k:_ZN2ns1K1fEi+4 {
		@[ustack(2)] = count(); @s[usym(reg(\"ip\"))] = count(); }" 2>&1)
	want='

@\[
    _ZN2ns1K1fEi\+4
    _Z2tfIlEiT_\+[0-9]+
\]: 1
@s\[_ZN2ns1K1fEi\]: 1'
	[[ $out =~ ^$want$ ]] || bad "C++, BPFTRACE_NO_CPP_DEMANGLE=1: got:
$out
want (regex):
$want"
fi
exit $fail
