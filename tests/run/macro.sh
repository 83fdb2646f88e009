#!/bin/bash
# Macros (bpftrace 0.26, docs/language.md "Macros"): values and
# statements, $x parameters by reference, @x parameters, bare
# parameters copied as expressions (evaluated at each use), the body's
# own variables apart from the caller's, macros calling macros, bare
# names of macros without parameters, and the standard library's
# overridden by the script's.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
# (exit() ends with two empty lines, then the maps)
run() {	# run SCRIPT: stdout into out, stderr must be empty
	"$SONDE" -q --dialect=0.26 -e "$1" > out 2> err || die "failed: $1 ($(cat err))"
	stderr_clean
}
run 'macro one() { 1 } macro add_one(x) { x + 1 } macro add_two(x) { add_one(x) + 1 }
begin { print(one()); print(one); $a = 10; print(add_one($a)); print(add_one(1 + 1));
print(add_two(1)); exit(); }'
expect "1
1
11
3
3

"
# by reference: the body changes the caller's variable and map
run 'macro add_one_to_each($a, @b) { $a += 1; @b += 1; }
macro inc($x) { $x += 1; $x }
begin { $a = 10; @b = 5; add_one_to_each($a, @b); print($a + @b);
$c = 1; $d = inc($c); print(($c, $d)); exit(); }'
expect "17
(2, 2)


@b: 6"
# a bare parameter is evaluated where the body names it
run 'macro side_effects(x) { x; x; x; } begin { side_effects(printf("hi")); printf("\n"); exit(); }'
expect "hihihi

"
# hygiene: the body's $y is not the caller's $y, in every expansion
run 'macro inc($x) { $y = $x + 1; $y } begin { $y = 2; $x = 5; $z = inc($x); $w = inc($z);
print(($y, $z, $w)); exit(); }'
expect "(2, 6, 7)

"
# maps: read and written through @parameters, keyed or not
run 'macro set(@x) { @x[1] = 2; } macro get(@x) { 1 + @x[1] } macro put(@m, k, v) { @m[k] = v; }
begin { @a[1] = 1; set(@a); print(get(@a)); put(@c, "k", 7); exit(); }'
expect "3


@a[1]: 2
@c[k]: 7"
# definition order does not matter; macros nest as statements and values
run 'macro add2($x) { add1($x); $x += 1; } macro add1($x) { $x += 1; }
macro sum3(a, b, c) { a + b + c }
begin { $a = 1; add2($a); print($a); print(sum3($a, 10, sum3(1, 2, 3))); exit(); }'
expect "3
19

"
# in a predicate and in nested blocks; in each probe of a list
run 'macro is_me(p) { p == $1 } macro twice(x) { x * 2 }
begin /is_me(0)/ { if (1) { if (twice(2) == 4) { print(twice(21)); } } exit(); }' 
expect "42

"
# NAME!(...) calls a macro too; "macro NAME { }" has no parameters
run 'macro greet { printf("hello\n"); } begin { greet!(); print(ppid!() > 0); exit(); }'
expect "hello
true

"
# a script's macro replaces the standard library's of the same arity
run 'macro ppid() { 12345 } begin { print(ppid); exit(); }'
expect "12345

"
# a type predicate and fail(): the compile checks an argument's type
run 'macro need_str(x) { if (!is_str(x)) { fail("need a string"); } x } begin { print(need_str("a")); exit(); }'
expect "a

"
"$SONDE" -q --dialect=0.26 -e 'macro need_str(x) { if (!is_str(x)) { fail("need a string"); } x } begin { print(need_str(1)); }' > out 2> err
[[ $? == 1 ]] && grep -q 'error\[E_FAIL\]: need a string' err && grep -q 'note: in macro need_str' err ||
	die "need_str(1): $(cat err)"
# __builtin_NAME is the builtin NAME, whatever macro is named NAME
run 'macro comm() { "mine" } begin { printf("%s %s %d\n", comm, __builtin_comm, __builtin_pid == pid); exit(); }'
expect "mine sonde 1

"
# exit() in a macro ends the probe there
run 'macro early() { exit(); } begin { early(); print(1); }'
expect "
"
echo ok
# a $x parameter the body only reads takes any expression, evaluated
# at each use, through macros calling macros
run 'macro add1($x) { $x + 1 } macro add2($y) { $y + add1($y) } macro add3($z) { $z + add2($z) }
macro inc($x) { $y = $x + 1; $z = $x + 2; $y + $z }
begin { $y = 2; print(add3(1)); $w = 3; print(add1($w * 2)); print(inc({ $y += 1; $y })); print($y); exit(); }'
expect "4
7
10
4

"
