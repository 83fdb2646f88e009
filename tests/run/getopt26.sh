#!/bin/bash
# getopt() (bpftrace 0.26): named program parameters after "--"
# (--NAME=VALUE, a bare --NAME for booleans) mixed with positional ones
# before and after it; defaults when absent; the default's type is the
# parameter's.  Then the errors: an option no getopt() reads, a value
# of the wrong type, a non-boolean without a value (exit 1, E_OPTION).
set -u
fail() { echo "$*"; exit 1; }
out=$("$SONDE" --dialect=0.26 -e 'begin {
	print((getopt("aa", 10, "Description of aa"), getopt("bb", "hello"),
	       getopt("cc"), getopt("dd", false)));
	printf("%d %s %d %d %d %d\n", getopt("aa", 1), getopt("bb", "x"),
	       getopt("cc"), getopt("ee", true), getopt("ff"), getopt("gg", 5) + 1);
	printf("%s %s %d\n", str($1), str($2), $#);
	@[getopt("bb", "")] = getopt("aa", 0) * 2;
	exit();
}' p1 -- --cc --bb=bye --aa=-32 p2 2>&1) || fail "sonde failed: $out"
want='Attached 1 probe
(-32, bye, 1, 0)
-32 bye 1 1 0 6
p1 p2 2


@[bye]: -64'
[[ $out == "$want" ]] || { diff <(echo "$want") <(echo "$out"); exit 1; }

# without "--", --x is no named parameter; a boolean takes true/false/1/0
out=$("$SONDE" --dialect=0.26 -e 'begin { printf("%d %d %d\n", getopt("t"), getopt("f", true), getopt("o", false)); exit(); }' \
	-- --t=true --f=0 --o=1 2>&1) || fail "sonde failed: $out"
[[ $out == $'Attached 1 probe\n1 0 1' ]] || fail "booleans: $out"

err() {	# err WANT ARGS...: sonde must exit 1 with stderr WANT
	local got st
	got=$("$SONDE" --dialect=0.26 --dump=bpf "${@:2}" 2>&1 >/dev/null)
	st=$?
	(( st == 1 )) || fail "exit $st, not 1: ${*:2}"
	[[ $got == "$1" ]] || { diff <(echo "$1") <(echo "$got"); exit 1; }
}
err '-e: error[E_OPTION]: unknown program option --zz: no getopt("zz") reads it' \
	-e 'begin { printf("%d\n", getopt("yy")); }' -- --zz
err '-e:1:24: error[E_OPTION]: getopt("n") is an integer: --n=abc is not one
begin { printf("%d\n", getopt("n", 3)); }
                       ^~~~~~~~~~~~~~' -e 'begin { printf("%d\n", getopt("n", 3)); }' -- --n=abc
err '-e:1:24: error[E_OPTION]: getopt("n") needs a value: --n=VALUE
begin { printf("%s\n", getopt("n", "s")); }
                       ^~~~~~~~~~~~~~~~' -e 'begin { printf("%s\n", getopt("n", "s")); }' -- --n
err '-e:1:24: error[E_OPTION]: getopt("b") is a boolean: --b=maybe is none of true, false, 1, 0
begin { printf("%d\n", getopt("b")); }
                       ^~~~~~~~~~~' -e 'begin { printf("%d\n", getopt("b")); }' -- --b=maybe
# an integer option takes true and false in any case, as 1 and 0
out=$("$SONDE" -q --dialect=0.26 -e 'begin { print((getopt("aa", 10), getopt("cc", 1), getopt("ee", "hello"))); }' -- --aa=20 --cc=False)
[[ $out == $'(20, 0, hello)' ]] || fail "integer from False: $out"

# the 0.17 dialect has no named parameters: --x is a positional one
out=$("$SONDE" --dialect=0.17 -e 'BEGIN { printf("%s\n", str($1)); exit(); }' -- --x=1 2>&1)
[[ $out == $'Attaching 1 probe...\n--x=1' ]] || fail "0.17: $out"
exit 0
