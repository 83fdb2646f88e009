#!/bin/bash
# sonde dtrace: -C -h and -C -G on a PostgreSQL-style provider file,
# the argument orders Python's and PostgreSQL's makefiles use, default
# output names; the header's typed macros (a wrong argument type does
# not compile), probe names kept as written ("__", as SystemTap's dtrace
# writes them, bpftrace and perf name them) and DTrace's spelling ("-")
# accepted, _ENABLED() true only while traced, the values traced (by
# bpftrace 0.17 too); errors exit 1 with FILE:LINE.
. "$SONDE_ROOT/tests/usdt/lib.sh"
cp "$USDT/dt_provider.d" "$USDT/dt_prog.c" .

"$SONDE" dtrace -C -h -s dt_provider.d -o dt_provider.h || { echo "FAIL dtrace -h"; exit 1; }
cc -std=c11 -Wall -Wextra -pedantic -Werror -O2 -c dt_prog.c ||
	{ echo "FAIL: dt_prog.c does not compile with the header"; exit 1; }
# PostgreSQL: dtrace -C -G -s probes.d -o probes.o OBJECTS...
"$SONDE" dtrace -C -G -s dt_provider.d -o dt_provider.o dt_prog.o ||
	{ echo "FAIL dtrace -G"; exit 1; }
cc -o prog dt_prog.o dt_provider.o || { echo "FAIL: link"; exit 1; }
same "untraced" "shipped 0 low 0 item widget" "$(./prog)"

same "-l" "usdt:$PWD/prog:shop:audit
usdt:$PWD/prog:shop:many
usdt:$PWD/prog:shop:order__placed
usdt:$PWD/prog:shop:order__shipped
usdt:$PWD/prog:stock:low" "$("$SONDE" -l "usdt:$PWD/prog:*")"
same "-l, DTrace's spelling" "usdt:./prog:shop:order__placed" "$("$SONDE" -l "usdt:./prog:shop:order-placed")"
readelf -n prog | grep -q 'Name: order__placed' || { echo "FAIL: note name"; readelf -n prog; exit 1; }

trace values -c './prog prog.out' -e '
usdt:./prog:shop:order__placed { printf("placed %d %s %d\n", arg0, str(arg1), arg2); }
usdt:./prog:shop:order-shipped { printf("shipped %d %d\n", arg0, arg1); }
usdt:./prog:shop:audit { printf("audit\n"); }
usdt:./prog:shop:many { printf("many %d %d\n", arg0, arg11); }
usdt:./prog:stock:low { printf("low %s %d\n", str(arg0), arg1); }'
same "traced values" "placed 1 widget -1
shipped 1 1500
audit
many 1 12
low widget -1
placed 2 widget -1
shipped 2 3000
audit
many 1 12
low widget -2" "$out"
same "enabled while traced" "shipped 2 low 2 item widget" "$(cat prog.out)"

# bpftrace 0.17 finds and traces them under their names as written
if command -v bpftrace > /dev/null; then
	bt=$(bpftrace -q -c './prog prog.out' -e 'usdt:./prog:shop:order__placed { printf("placed %d %s\n", arg0, str(arg1)); }' 2>&1 | grep -v RLIMIT)
	same "bpftrace 0.17 traces them" "placed 1 widget
placed 2 widget" "$(grep placed <<< "$bt")"
fi

# only the probe traced is enabled
trace one -c './prog prog.out' -e 'usdt:./prog:stock:low { @n = count(); }'
same "one probe enabled" "shipped 0 low 2 item widget" "$(cat prog.out)"

# the compiler checks the arguments' types
cat > wrong.c <<'X'
#include "dt_provider.h"
void f(unsigned id) { SHOP_ORDER_PLACED("widget", id, 0); }
X
if cc -std=c11 -Werror -c wrong.c 2> wrong.err; then
	echo "FAIL: a string for TxnId compiled"; exit 1
fi
grep -q 'dt_provider.h' wrong.err || { echo "FAIL: no diagnostic in the header:"; cat wrong.err; exit 1; }

# C++ takes the header too
if command -v g++ > /dev/null; then
	g++ -std=c++11 -Wall -Wextra -pedantic -Werror -x c++ -c -o cxx.o dt_prog.c ||
		{ echo "FAIL: the header in C++"; exit 1; }
fi

# Python's order (-o first), -64, and default output names
mkdir sub
(cd sub && "$SONDE" dtrace -64 -o py.h -C -h -s ../dt_provider.d &&
	"$SONDE" dtrace -C -h -s ../dt_provider.d && "$SONDE" dtrace -C -G -s ../dt_provider.d) ||
	{ echo "FAIL: other argument orders"; exit 1; }
same "output files" "dt_provider.h
dt_provider.o
py.h" "$(ls sub)"
grep -q '^#define SHOP_ORDER_PLACED(arg0, arg1, arg2)' sub/py.h || { echo "FAIL: py.h"; exit 1; }
nm sub/dt_provider.o | grep -q ' shop_order__placed_semaphore$' ||
	{ echo "FAIL: no semaphore in dt_provider.o"; nm sub/dt_provider.o; exit 1; }

# sonde linked as dtrace is dtrace, for configure scripts that look for it
ln -s "$SONDE" dtrace
(cd sub && PATH=$work:$PATH dtrace -C -h -s ../dt_provider.d -o linked.h) &&
	grep -q '^#define SHOP_ORDER_PLACED(arg0, arg1, arg2)' sub/linked.h ||
	{ echo "FAIL: sonde linked as dtrace"; exit 1; }

# errors
err() {
	local want=$1 got
	shift
	got=$("$SONDE" dtrace "$@" 2>&1) && { echo "FAIL: sonde dtrace $* succeeded"; exit 1; }
	[[ $got == *"$want"* ]] || { echo "FAIL: sonde dtrace $*: want '$want', got:"; echo "$got"; exit 1; }
}
printf 'provider p {\n\tprobe a(int)\n};\n' > bad.d
err "bad.d:3: error: ';' expected" -h -s bad.d -o bad.h
err "cannot read nosuch.d" -h -s nosuch.d
err "cannot read nosuch.d" -C -h -s nosuch.d
# without -h or -G, -s runs a D program: a provider file has no probes
err "no probes matched" -s bad.d
err "give -h or -G, not both" -h -G -s bad.d
err "no provider file" -h
err "unknown option" -h -s bad.d -q
[[ ! -e bad.h ]] || { echo "FAIL: bad.h written"; exit 1; }
CC=false err "compiling the semaphores of dt_provider.d" -G -s dt_provider.d -o x.o
CC=false err "the C preprocessor failed on dt_provider.d" -C -h -s dt_provider.d -o x.h
exit 0
