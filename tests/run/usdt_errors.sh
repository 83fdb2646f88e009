#!/bin/bash
# usdt errors: a missing file, files that are not ELF, truncated and
# corrupted ELF files (built here from a good one), an object file,
# probes not found or ambiguous, arguments a probe does not have or
# sonde cannot read.  None may crash sonde or -l.
. "$SONDE_ROOT/tests/usdt/lib.sh"
build forms "$USDT/forms.S" "$USDT/forms_main.c"
build sdt -O2 "$USDT/sdt_prog.c"
cc -I"$SONDE_ROOT/include" -c -o sdt.o "$USDT/sdt_prog.c" || exit 1

# fails SPEC TEXT...: compiling a probe on SPEC fails (exit 1, not a
# crash) with error[E_PROBE] (or the tag in $tag) and each TEXT.
fails() {
	local spec=$1 got st
	shift
	got=$("$SONDE" --dump=bpf -e "$spec { exit(); }" 2>&1)
	st=$?
	(( st == 1 )) || { echo "FAIL $spec: exit $st:"; echo "$got"; exit 1; }
	[[ $got == *"error[${tag:-E_PROBE}]"* ]] || { echo "FAIL $spec: no error[${tag:-E_PROBE}]:"; echo "$got"; exit 1; }
	for want in "$@"; do
		[[ $got == *"$want"* ]] || { echo "FAIL $spec: want '$want':"; echo "$got"; exit 1; }
	done
}

# -l on FILE must not crash
lists() {
	"$SONDE" -l "usdt:./$1" > /dev/null 2>&1
	local st=$?
	(( st <= 1 )) || { echo "FAIL -l $1: exit $st"; exit 1; }
}

fails "usdt:./nosuch:p:n" "usdt: ./nosuch: no such file, library or program"
echo "not a program" > text
fails "usdt:./text:p:n" "$PWD/text: not an ELF file"
: > empty
fails "usdt:./empty:p:n" "not an ELF file"
printf '\177ELF' > magic
fails "usdt:./magic:p:n" "not an ELF file"
fails "usdt:./sdt.o:sdt:ints" "not an executable or a shared library"
fails "usdt:./sdt:sdt:nosuch" "usdt: no probe sdt:nosuch in $PWD/sdt"
fails "usdt:./sdt:nosuch" "usdt: no probe nosuch in $PWD/sdt"
fails "usdt:./sdt:zz*:*" "usdt: no probe zz*:* in $PWD/sdt"
fails "usdt:$PWD" "usdt probe needs a file and a probe"
for f in text empty magic sdt.o; do lists "$f"; done

# two providers with one probe name: usdt:PATH:NAME is ambiguous
cat > two.c <<'X'
#include <sonde/sdt.h>
int main(void) { SONDE_PROBE(one, start); SONDE_PROBE(two, start); return 0; }
X
build two two.c
fails "usdt:./two:start" "several providers of $PWD/two have a probe start" "usdt:./two:one:start"
same "both with *" "usdt:./two:one:start
usdt:./two:two:start" "$("$SONDE" -l -e 'usdt:./two:*:start { }')"

# arguments
tag=E_CONTEXT fails 'usdt:./sdt:sdt:exprs { print(arg4); } usdt:./sdt:sdt:none' \
	"usdt:./sdt:sdt:exprs has 4 arguments (arg0..arg3)"
tag=E_CONTEXT fails 'usdt:./sdt:sdt:none { print(arg0); } usdt:./sdt:sdt:none' \
	"usdt:./sdt:sdt:none has no arguments"
tag=E_CONTEXT fails 'usdt:./forms:bad { print(arg0); } usdt:./forms:bad' \
	"arg0 is '8@%xmm0': floating-point and vector registers are not supported"
tag=E_CONTEXT fails 'usdt:./forms:bad { print(arg2); } usdt:./forms:bad' \
	"arg2 is '3@%rax': the size must be 1, 2, 4 or 8 bytes"
tag=E_CONTEXT fails 'usdt:./forms:bad { print(arg3); } usdt:./forms:bad' \
	"arg3 is '8@nosuch(%rip)': names a symbol that is not in the file's symbol table"
tag=E_CONTEXT fails 'usdt:./sdt:sdt:ints { print(retval); } usdt:./sdt:sdt:ints' \
	"'retval' is not available in usdt:./sdt:sdt:ints probes"
# an unreadable operand is fine while unused; the readable ones work
trace "bad unused" -c ./forms -e 'usdt:./forms:bad { printf("%d\n", arg1); }'
same "readable operand of a bad probe" "-5" "$out"

# broken ELF files, from the good one: truncated, and with corrupt
# note sizes; a note whose sizes run past its section is skipped and
# counted, the notes before it still usable
read -r noff nsize < <(readelf -S -W sdt | sed -n 's/.*\] \.note\.stapsdt *NOTE *[0-9a-f]* \([0-9a-f]*\) \([0-9a-f]*\).*/\1 \2/p')
[[ -n $noff ]] || { echo "FAIL: no .note.stapsdt in sdt"; exit 1; }
noff=$((16#$noff)) nsize=$((16#$nsize))
size=$(stat -c %s sdt)
for cut in 16 64 1000 $((size / 2)) $((noff + 10)) $((noff + nsize / 2)) $((size - 1)); do
	head -c $cut sdt > cut_$cut
	"$SONDE" --dump=bpf -e "usdt:./cut_$cut:sdt:ints { exit(); }" > /dev/null 2>&1
	st=$?
	(( st <= 1 )) || { echo "FAIL: truncated at $cut: exit $st"; exit 1; }
	lists "cut_$cut"
done
# put32 FILE OFFSET VALUE: a little-endian 32-bit word
put32() {
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 & 255)) $(($3 >> 8 & 255)) \
		$(($3 >> 16 & 255)) $(($3 >> 24 & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# the first note is sdt:none; its descsz, then its namesz, corrupted
for v in 4294967295 2147483647 4294967284 1; do
	cp sdt bad_desc_$v
	put32 bad_desc_$v $((noff + 4)) $v
	cp sdt bad_name_$v
	put32 bad_name_$v $noff $v
	for f in bad_desc_$v bad_name_$v; do
		"$SONDE" --dump=bpf -e "usdt:./$f:sdt:ints { exit(); }" > $f.out 2>&1
		st=$?
		(( st <= 1 )) || { echo "FAIL $f: exit $st"; cat $f.out; exit 1; }
		lists $f
	done
done
fails "usdt:./bad_desc_4294967295:sdt:none" "usdt: no probe sdt:none in" "(1 corrupt note skipped)"
# a short desc: that note is skipped, the walk goes on
cp sdt short_desc
put32 short_desc $((noff + 4)) 8
"$SONDE" -l "usdt:./short_desc" > short.out 2> short.err
grep -q "corrupt note" short.err || { echo "FAIL: short desc not reported:"; cat short.err; exit 1; }
# section headers past the end of the file
cp sdt bad_shoff
put32 bad_shoff 40 $((size + 4096))
fails "usdt:./bad_shoff:sdt:ints" "usdt:"
lists bad_shoff
exit 0
