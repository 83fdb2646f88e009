#!/bin/bash
# C++ and Rust names in user stacks and usym(), demangled (libiberty's
# demangler, out/demangle.c): a C++ program's method and template
# instance, and C functions carrying Rust's legacy (_ZN...17h<hash>E)
# and v0 (_R...) mangled names, printed as Rust writes them (without
# the hash); BPFTRACE_NO_CPP_DEMANGLE=1 and config cpp_demangle =
# false print the symbol tables' names.
. "$SONDE_ROOT/tests/lib/trace.sh"
command -v g++ > /dev/null || { echo "no g++"; exit 77; }
cd "$work" || exit 1
cat > cart.cc <<'CC'
#include <unistd.h>
namespace shop {
struct Cart {
	__attribute__((noinline)) long total(int n);
};
template <typename T> __attribute__((noinline)) T twice(T x)
{
	return (T)getppid() + x * 2;
}
}
long shop::Cart::total(int n) { return shop::twice<long>(n) + 1; }
int main(int argc, char **argv)
{
	shop::Cart c;
	long s = 0;
	for (int i = 0; i < 3; i++)
		s += c.total(i);
	return s == 7;
}
CC
g++ -O1 -o cart cart.cc || die "g++"
cat > rs.c <<'C'
#include <unistd.h>
long rs_legacy(long x) __asm__("_ZN7mycrate6module4work17h0123456789abcdefE");
long rs_v0(long x) __asm__("_RNvNtCs1234_7mycrate6module5other");
__attribute__((noinline)) long rs_legacy(long x) { return getppid() + x; }
__attribute__((noinline)) long rs_v0(long x) { return rs_legacy(x) + 1; }
int main(void) { return rs_v0(1) == 7; }
C
cc -O1 -o rs rs.c || die "cc"
s='uprobe:libc:getppid /pid == cpid/ { @[ustack(4)] = count(); }'
"$SONDE" -q -c ./cart -e "$s" > out 2> err || die "cart: $(cat err)"
grep -qx '    long shop::twice<long>(long)+[0-9]*' out &&
grep -qx '    shop::Cart::total(int)+[0-9]*' out || die "C++: $(cat out)"
"$SONDE" -q -c ./rs -e "$s" > out 2> err || die "rs: $(cat err)"
grep -qx '    mycrate::module::work+[0-9]*' out &&
grep -qx '    mycrate::module::other+[0-9]*' out || die "Rust: $(cat out)"
# usym() too
"$SONDE" -q -c ./rs -e 'uprobe:./rs:_RNvNtCs1234_7mycrate6module5other /pid == cpid/ { @[usym(reg("ip"))] = count(); }' > out 2> err ||
	die "usym: $(cat err)"
grep -qx '@\[mycrate::module::other\]: 1' out || die "usym: $(cat out)"
# off: the symbol tables' names
BPFTRACE_NO_CPP_DEMANGLE=1 "$SONDE" -q -c ./cart -e "$s" > out 2> err || die "no demangle: $(cat err)"
grep -qx '    _ZN4shop4Cart5totalEi+[0-9]*' out || die "BPFTRACE_NO_CPP_DEMANGLE: $(cat out)"
"$SONDE" -q -c ./rs -e "config = { cpp_demangle = false } $s" > out 2> err || die "config: $(cat err)"
grep -qx '    _ZN7mycrate6module4work17h0123456789abcdefE+[0-9]*' out || die "cpp_demangle = false: $(cat out)"
echo ok
