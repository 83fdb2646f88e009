#!/bin/bash
# uprobes' args.NAME in a C++ program, by mangled name (bpftrace 0.17
# finds no parameters there: it looks functions up by their DWARF name,
# which is the plain one): a method's hidden `this`, a reference (read
# as a pointer), a pointer to a struct, an overloaded function's own
# parameters, an extern "C" function's string; built at -O0 and -O2,
# every value exact; and -lv lists their parameters, C++'s `this` and
# references included.
set -u
command -v c++ > /dev/null || { echo "no C++ compiler"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/c.cc" <<'C'
#include <cstring>
struct Pt { int x; int y; };
namespace ns {
struct Obj { long v; int get(int k) const; };
__attribute__((noinline)) int Obj::get(int k) const { return (int)v + k; }
__attribute__((noinline)) long sum(const Pt &p, Pt *q, long n) { return p.x * p.y + q->x * q->y + n; }
}
extern "C" __attribute__((noinline)) int cfunc(int a, const char *s) { return a + s[0]; }
__attribute__((noinline)) int over(int a) { return a; }
__attribute__((noinline)) int over(long a, char b) { return (int)a + b; }
char buf[16];
int main() {
	strcpy(buf, "hi");
	Pt p{-1, 2}, q{3, -4};
	ns::Obj o{40000000000};
	return ns::sum(p, &q, 5000000000) + o.get(-2) + cfunc(5, buf) +
	       over(1) + over(-2L, 'c') > 1000;
}
C
script='
uprobe:@P@:_ZN2ns3sumERK2PtPS0_l { @sum = (args.p->x, args.p->y, args.q->x, args.q->y, args.n); }
uprobe:@P@:_ZNK2ns3Obj3getEi { @get = (args.this->v, args.k); }
uprobe:@P@:_Z4overi { @over1 = args; }
uprobe:@P@:_Z4overlc { @over2 = args; }
uprobe:@P@:cfunc { @cfunc = (args.a, str(args.s)); }'
want='@cfunc: (5, hi)
@get: (40000000000, -2)
@over1: { .a = 1 }
@over2: { .a = -2, .b = 99 }
@sum: (-1, 2, 3, -4, 5000000000)'
for o in -O0 -O2; do
	c++ -g $o -o "$dir/c$o" "$dir/c.cc" || { echo "cannot build with $o"; exit 1; }
	out=$("$SONDE" -q -c "$dir/c$o" -e "${script//@P@/$dir/c$o}" 2>&1 | sed '/^$/d')
	if [[ $out != "$want" ]]; then
		echo "$o: output differs (- expected, + actual):"
		diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$out") | tail -n +3
		exit 1
	fi
done

cd "$dir" || exit 1
out=$("$SONDE" -lv 'uprobe:./c-O0:_Z*' 2>&1)
want='uprobe:./c-O0:_Z4overi
    int a
uprobe:./c-O0:_Z4overlc
    long int a
    char b
uprobe:./c-O0:_ZN2ns3sumERK2PtPS0_l
    const struct Pt& p
    struct Pt* q
    long int n
uprobe:./c-O0:_ZNK2ns3Obj3getEi
    const struct Obj* const this
    int k'
if [[ $out != "$want" ]]; then
	echo "-lv differs (- expected, + actual):"
	diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$out") | tail -n +3
	exit 1
fi
exit 0
