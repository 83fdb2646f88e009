#!/bin/bash
# bpftrace 0.26's declarations and block scope (--dialect=0.26): let
# with and without a type and a value, variables that belong to their
# block (two sibling blocks with one name and different types), a let
# in a loop set to zero on each round, block expressions as values, the
# a ?: b operator (a evaluated once) and indexing into strings.
set -u
fail=0
check() {	# NAME SCRIPT WANT [ARGS...]
	local name=$1 script=$2 want=$3 got
	shift 3
	got=$("$SONDE" --dialect=0.26 "$@" -e "$script" 2>&1)
	got=${got%$'\n\n'}
	got=${got%$'\n'}
	if [[ $got != "$want" ]]; then
		echo "$name: got:"; echo "$got"; echo "want:"; echo "$want"
		fail=1
	fi
}

check declarations 'BEGIN {
	let $a = 1;
	let $b;
	let $c: uint16 = 300;
	let $s: string[8] = "abc";
	let $n: int64;
	let $f: bool = 1;
	$b = "hello";
	$n = 0;
	printf("%d %s %d %s %d %d\n", $a, $b, $c, $s, $n, $f);
	$c = 65535; $c++;
	printf("%d %d\n", $c, sizeof($c));
	exit();
}' 'Attached 1 probe
1 hello 300 abc 0 1
0 2'

# an array declared: zeros, its size
# (read before any assignment: a warning, once)
check typed_array 'BEGIN { let $a: int32[4]; print($a); printf("%d %d\n", $a[1], sizeof($a)); exit(); }' \
'-e:1:33: warning: variable $a is used before it is assigned (it holds zero)
BEGIN { let $a: int32[4]; print($a); printf("%d %d\n", $a[1], sizeof($a)); exit(); }
                                ^~
Attached 1 probe
[0,0,0,0]
0 16'

check never_assigned 'BEGIN { let $q; let $r: int8; exit(); }' \
'-e:1:13: warning: variable $q is declared but never assigned
BEGIN { let $q; let $r: int8; exit(); }
            ^~
-e:1:21: warning: variable $r is declared but never assigned
BEGIN { let $q; let $r: int8; exit(); }
                    ^~
Attached 1 probe'

# a typed string keeps its size: a longer value is cut
check typed_string 'BEGIN { let $s: string[4]; $s = comm; printf("[%s]\n", $s); exit(); }' \
'Attached 1 probe
[son]'

check sibling_blocks 'BEGIN {
	if (pid > 0) { let $x = 5; printf("x=%d\n", $x); }
	if (pid > 0) { $x = "str"; printf("x=%s\n", $x); }
	{ let $x = (7, "seven"); print($x); }
	exit();
}' 'Attached 1 probe
x=5
x=str
(7, seven)'

check declared_before 'BEGIN {
	let $x;
	if (0) { $x = "hello"; } else { $x = "bye"; }
	print($x);
	let $y = 0;
	for ($i : 0..4) { $y += $i; }
	print($y);
	exit();
}' 'Attached 1 probe
bye
6'

check let_in_loop 'BEGIN {
	$i = 0;
	while ($i < 3) {
		let $z: int64;
		let $w = 10;
		$z += $i; $w += $i;
		printf("%d %d\n", $z, $w);
		$i++;
	}
	unroll(2) { let $u: int32; $u++; printf("u=%d\n", $u); }
	exit();
}' 'Attached 1 probe
0 10
1 11
2 12
u=1
u=1'

check block_expr 'BEGIN {
	$a = { let $y = 2; $y + 1 };
	let $b = { let $s = "in"; $s };
	printf("%d %s %d\n", $a, $b, { let $k = 3; $k * $a });
	@m[{ 5 }] = { let $v = 7; $v };
	if ({ let $c = 1; $c == 1 }) { printf("yes\n"); }
	$t = (1, { "tup" });
	print($t);
	print(({ { let $x = 2; $x * 3 } }, { let $y = 1; { $y + 1 } }));
	exit();
}' 'Attached 1 probe
3 in 9
yes
(1, tup)
(6, 2)


@m[5]: 7'

check elvis 'BEGIN {
	@c = 0;
	$a = @c++ ?: 100;
	$b = @c++ ?: 100;
	printf("%d %d %d\n", $a, $b, @c);
	$n = 0;
	printf("%d %d %d\n", $n ?: -3, 4 ?: 5, $n ?: $n ?: 6);
	if (0 ?: pid) { printf("true\n"); }
	clear(@c);
	exit();
}' 'Attached 1 probe
100 1 2
-3 4 6
true'

# a tuple's elements by constant index
check tuple_index 'BEGIN { $a = (1, "hello"); $b = (3, $a); print($a[1]); print($b[1][0] + $b[0]); print((7, "x")[2 - 2]); exit(); }' \
'Attached 1 probe
hello
4
7'

# &$x: the variable's address, read through with * and str()
check address_of 'BEGIN { $a = 5; $b = &$a; $a = 7; let $s = "text"; $p = &$s; $u = (uint8)200; $q = &$u; printf("%d %s %d %d\n", *$b, str($p), *$q, $b != 0); exit(); }' \
'Attached 1 probe
7 text 200 1'
check void_pointer 'BEGIN { $x = 65; $p = (void *)&$x; $q = (int8 *)&$x; printf("%d %d %d\n", $p != 0, *$q, *(int64 *)$p); exit(); }' \
'Attached 1 probe
1 65 65'

# _ = e: the value dropped, the side effects kept
check discard 'BEGIN { $i = 1; _ = $i++; _ = { printf("in %d\n", $i); 5 }; exit(); }' \
'Attached 1 probe
in 2'

# characters of strings: a variable, a map value, str() of a kernel
# char[], comm, with constant and variable indexes; out of range: 0
check str_index 'BEGIN {
	$s = "abc";
	@m[1] = "xyz";
	$t = (struct task_struct *)curtask;
	$i = 1;
	printf("%c%c%c %d\n", $s[0], $s[$i], $s[2], $s[3]);
	printf("%c %c%c %c%c\n", @m[1][2], comm[0], comm[$i],
	       $t->comm[2], str($t->comm)[3]);
	$i = 100;
	printf("%d %d\n", $s[$i], $s[0] == 97);
	delete(@m, 1);
	exit();
}' 'Attached 1 probe
abc 0
z so nd
0 1'

# events of a tracepoint: the opened path's characters, in blocks of
# their own
check tracepoint_event 'tracepoint:syscalls:sys_enter_openat /comm == "cat"/ {
	let $p = str(args.filename);
	if ($p == "/dev/null") { let $c = $p[1]; printf("%c%c", $p[0], $c); }
	if ($p == "/dev/null") { let $c = $p[5] ?: 63; printf("%c%c\n", $c, $p[6]); }
}' '/dnu' -q -c 'cat /dev/null'

exit $fail
