#!/bin/bash
# strlen(), strcap(), strstr(), memcmp() and default_str_length()
# (bpftrace 0.26): literals (known at compile time), variables, map
# values and a positional parameter (known only at run time).
set -u
out=$("$SONDE" --dialect=0.26 -e '
BEGIN
{
	$a = "hello"; $e = ""; $b = "help";
	printf("%d %d %d %d\n", strlen("abc"), strlen($a), strlen($e), strlen(str($1)));
	@s = "a string of thirty-three bytes..";
	printf("%d %d %d %d\n", strlen(@s), strcap("abc"), strcap($a), default_str_length());
	printf("%d %d %d %d %d\n", strstr("hello", "ll"), strstr($a, "lo"),
	       strstr($a, "x"), strstr($a, ""), strstr($a, $a));
	printf("%d %d %d\n", strstr(@s, "thirty"), strstr(@s, $b), strstr(str($1), "def"));
	printf("%d %d %d %d\n", memcmp($a, $b, 4), memcmp($b, $a, 4), memcmp($a, $b, 3),
	       memcmp($a, "hello", 6));
	$n = 4; $m = 3;
	printf("%d %d %d %d\n", memcmp($a, $b, $n), memcmp($a, $b, $m),
	       memcmp(0x0102, 0x0103, 8), memcmp((1, "x"), (1, "y"), 8));
	@x = strstr($a, "l");
	exit();
}' abcdefg 2>&1) || { echo "sonde failed: $out"; exit 1; }
expect='Attached 1 probe
3 5 0 7
32 4 6 1024
2 3 -1 0 0
12 -1 3
-4 4 0 0
-4 0 -1 0


@s: a string of thirty-three bytes..
@x: 2'
if [[ $out != "$expect" ]]; then
	diff <(echo "$expect") <(echo "$out")
	exit 1
fi
