#!/bin/bash
# The unwind rows sonde compiles from call frame information (sonde
# --dump-cfi, catalog/cfi.c) agree with readelf's reading of the same
# CFI, row by row, for libc, the dynamic linker and a program built
# -O2 -fomit-frame-pointer: wherever readelf shows a rule the BPF walker
# follows (CFA = rsp/rbp + N, return address at CFA - 8, rbp saved at
# CFA + N or unchanged), sonde's row covering that address says the
# same; an expression is the PLT's rule or "frame pointer".  Files with
# no CFI and files that are not ELF are refused with a message.
set -u
export LC_ALL=C
work=$(mktemp -d "${TMPDIR:-/tmp}/sonde-cfi.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
PROGS=${SONDE_PROGS:-$SONDE_ROOT/build/progs}
die() { echo "$*"; exit 1; }
command -v readelf > /dev/null || { echo "no readelf"; exit 77; }

libc=$(ldd "$PROGS/deepstack" | awk '/libc.so/ { print $3 }')
ld=$(ldd "$PROGS/deepstack" | awk '/ld-linux/ { print $1 }')
for f in "$PROGS/deepstack" "$libc" "$ld"; do
	[[ -f $f ]] || die "no file $f"
	"$SONDE" --dump-cfi "$f" > "$work/rows" 2> "$work/err" ||
		die "--dump-cfi $f: $(cat "$work/err")"
	readelf --debug-dump=frames-interp "$f" > "$work/re" 2> /dev/null
	[[ -s $work/re ]] ||
		die "readelf $f"
	awk -v file="$f" '
	function hex(s,   i, c, v) {
		v = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	BEGIN { n = 0 }
	# sonde rows: "PC RULE..."
	FILENAME == ARGV[1] {
		if (FNR == 1) next
		pc[n] = hex($1); rule[n] = substr($0, 10); n++
		next
	}
	# readelf: a header "LOC CFA reg... ra" and rows
	/ CIE / { infde = 0; ncol = 0; next }
	/^ +LOC +CFA/ && infde { ncol = NF; for (i = 1; i <= NF; i++) col[i] = $i; next }
	/ FDE / { infde = 1; ncol = 0; next }
	ncol && /^[0-9a-f]+ / && NF == ncol {
		loc = hex($1); cfa = $2; rbp = "u"; ra = ""
		for (i = 3; i <= NF; i++) {
			if (col[i] == "rbp") rbp = $i
			if (col[i] == "ra") ra = $i
		}
		# the row of sonde covering loc
		lo = 0; hi = n
		while (lo < hi) { mid = int((lo + hi) / 2); if (pc[mid] <= loc) lo = mid + 1; else hi = mid }
		got = lo ? rule[lo - 1] : "none"
		checked++
		if (cfa == "exp") {
			if (got !~ /^(cfa=plt\(rsp\+8,1[01]\) ra=c-8|frame pointer)$/) bad++
			if (got ~ /plt/) plt++
			if (bad && !shown++) print file ": at " $1 " readelf has an expression, sonde " got
			next
		}
		if (cfa !~ /^r[bs]p\+[0-9]+$/ || ra != "c-8" || (rbp != "u" && rbp !~ /^c-[0-9]+$/)) {
			other++
			next
		}
		want = "cfa=" cfa " ra=c-8" (rbp == "u" ? "" : " rbp=" rbp)
		if (got != want) {
			bad++
			if (!shown++) print file ": at " $1 " readelf says " want ", sonde " got
		}
		ok++
	}
	END {
		if (!ok) { print file ": no rows compared"; exit 1 }
		if (bad) { print file ": " bad " of " checked " rows differ"; exit 1 }
		printf "%s: %d rows agree, %d other rules\n", file, ok, other + 0
	}' "$work/rows" "$work/re" || exit 1
done

# the program: rows for every function of the deep chain
"$SONDE" --dump-cfi "$PROGS/deepstack" | grep -q 'cfa=rsp+' || die "deepstack: no rsp rules"

# refusals
printf 'not ELF\n' > "$work/text"
out=$("$SONDE" --dump-cfi "$work/text" 2>&1) && die "a text file: exit 0"
[[ $out == "sonde: --dump-cfi $work/text: not an ELF file" ]] || die "a text file: $out"
out=$("$SONDE" --dump-cfi "$work/none" 2>&1) && die "a missing file: exit 0"
[[ $out == "sonde: --dump-cfi $work/none: No such file or directory" ]] || die "a missing file: $out"
# an ELF file without CFI: an object of one data symbol
printf 'int x = 1;\n' > "$work/d.c"
cc -c -fno-asynchronous-unwind-tables -o "$work/d.o" "$work/d.c" || die "cc"
out=$("$SONDE" --dump-cfi "$work/d.o" 2>&1) && die "no CFI: exit 0"
[[ $out == "sonde: --dump-cfi $work/d.o: no call frame information" ]] || die "no CFI: $out"
echo ok
