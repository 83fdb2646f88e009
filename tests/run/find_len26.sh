#!/bin/bash
# find() and len() (bpftrace 0.26), and has_key() and find() of a tuple
# variable as the keys of a map of several: find() copies a map's value into a
# variable when the key is there (tuple values, string and tuple keys,
# an integer variable left alone when the key is missing); len() counts
# a map's keys (plain values and count(), after a delete()) and a
# stack's frames (kstack(2) keeps two; a syscall's kernel stack has
# more than two).
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls getppid 3 -- "$SONDE" --dialect=0.26 -e '
begin {
	@map[2] = (1, "hello"); @s["a"] = 5; @t[1, "x"] = "str";
	if (find(@map, 2, $val)) { print($val); }
	$n = 7;
	printf("%d %d ", find(@s, "b", $n), $n);
	printf("%d %d\n", find(@s, "a", $n), $n);
	$r = find(@t, (1, "x"), $q);
	printf("%d %s %d\n", $r, $q, find(@t, (2, "x"), $q));
	$k = (1, "x");
	printf("%d %d %d %d %d\n", len(@map), len(@s), len(@t), find(@t, $k, $q), has_key(@t, $k));
	@a[1] = 1; @a[2] = 2; @a[3] = 3; delete(@a, 2);
	printf("%d\n", len(@a));
	printf("ready\n");
}
tracepoint:syscalls:sys_enter_getppid /pid == $1/ {
	@c[len(kstack) > 2, len(kstack(2)), len(ustack) > 0] = count();
	@n[1] = count();
	@len = len(@n);
}' @TRIG@
expect "(1, hello)
0 7 1 5
1 str 0
1 1 1 1 1
2
ready


@a[1]: 1
@a[3]: 3
@c[true, 2, true]: 3
@len: 1
@map[2]: (1, hello)
@n[1]: 3
@s[a]: 5
@t[1, x]: str"
stderr_clean
