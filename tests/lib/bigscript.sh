#!/bin/bash
# bigscript.sh SHAPE N: print a bpftrace script whose BEGIN body holds N
# statements of one shape, for tests/run/large_body.sh and
# bench/large.sh: scripts as large as generated ones get, each shape a
# pattern that once made the verifier give up (a pending branch per map
# lookup and per counted failure, jumps longer than 32767
# instructions, else-if chains past the parser's nesting limit).  The
# values the verifier cannot know (map values) keep every branch open.
#
#   ifprint  @m += 1; if (@m > 5) { printf(...); }      the shape
#   keyed    the same on @k[1]
#   vars     a variable from a map, compared and printed
#   elif     one if/else-if chain N long
#   lookups  @s += @aK over 50 maps
#   nested   ifs two deep, with else
#   agg      count(), sum() and hist() on keys
#   strs     a map keyed by (comm, K), compared and printed with comm
set -u
shape=$1 n=$2
echo 'BEGIN {'
case $shape in
ifprint)
	for ((i = 0; i < n; i++)); do
		echo '	@m += 1; if (@m > 5) { printf("x %d\n", @m); }'
	done ;;
keyed)
	for ((i = 0; i < n; i++)); do
		echo '	@k[1] += 1; if (@k[1] > 5) { printf("k %d\n", @k[1]); }'
	done ;;
vars)
	for ((i = 0; i < n; i++)); do
		echo '	$x = @v + 1; @v = $x; if ($x % 3 == 0) { printf("v %d\n", $x); }'
	done ;;
elif)
	echo "	@x = $((n / 2));"
	echo '	if (@x == 0) { @a = 0; }'
	for ((i = 1; i < n; i++)); do
		echo "	else if (@x == $i) { @a = $i; }"
	done ;;
lookups)
	for ((i = 0; i < 50; i++)); do echo "	@a$i = $i;"; done
	for ((i = 0; i < n; i++)); do echo "	@s += @a$((i % 50));"; done ;;
nested)
	echo '	@m = 3;'
	for ((i = 0; i < n; i++)); do
		echo "	if (@m > $((i % 7))) { @m += 1; if (@m % 4 == $((i % 3))) { @k += 1; } else { @j += 1; } }"
	done ;;
agg)
	for ((i = 0; i < n; i++)); do
		echo "	@c[$((i % 10))] = count(); @s = sum($i); @h = hist($i);"
	done ;;
strs)
	for ((i = 0; i < n; i++)); do
		echo "	@s[comm, $((i % 5))] += 1; if (@s[comm, $((i % 5))] % 100 == 0) { printf(\"%s %d\\n\", comm, @s[comm, $((i % 5))]); }"
	done ;;
*)
	echo "bigscript.sh: unknown shape $shape" >&2
	exit 2 ;;
esac
echo '	exit();'
echo '}'
