#!/bin/bash
# 0.26 reads aggregations in a probe: count(), sum(), min(), max() and
# avg() values merged over the CPUs in BPF (bpf_loop over
# bpf_map_lookup_percpu_elem), in expressions, conditions, casts, map
# keys and print(@m[k]), text and -f json; stats() and histograms stay
# unreadable, and --dialect=0.17 keeps refusing them all.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
NOPRINT='config = { print_maps_on_exit = 0 }'
run() {
	"$SONDE" -q --dialect=0.26 "$@" > out 2> err || die "sonde failed: $(cat err)"
	stderr_clean
}
run -e "$NOPRINT"'BEGIN {
	@c = count(); @c = count();
	@s[1] = sum(5); @s[1] = sum(-9);
	@mn = min(7); @mn = min(3); @mx = max(-4); @mx = max(-2);
	@a["x"] = avg(10); @a["x"] = avg(-5); @u = sum((uint32)7);
	printf("%d %d %d %d %d %d\n", @c, @s[1], @mn, @mx, @a["x"], @u);
	if (@c > 1) { printf("c > 1\n"); }
	if (@s[1] == -4) { printf("s == -4\n"); }
	$x = @s[1] + @s[2];
	printf("%d %d %d\n", $x, (int64)@c, @c * 10);
	@k[@c] = @mx;
	printf("%d\n", @k[2]);
	print(@c); print(@s[1]); print(@a["x"]); print(@s[3]); print((@c, @mn));
	exit(); }'
expect "2 -4 3 -2 2 7
c > 1
s == -4
-4 2 20
-2
@c: 2
-4
2
0
(2, 3)"
run -f json -e "$NOPRINT"'BEGIN { @c[1] = count(); @c[1] = count(); @p[1, "a"] = 5; print(@c[1]); print(@p[1, "a"]); print(@c[2]); exit(); }'
expect '{"type": "value", "data": 2}
{"type": "value", "data": 5}
{"type": "value", "data": 0}'
# counted on every CPU: the probe's read is what exit prints
run -e 'profile:hz:997 { @c = count(); @s = sum(3); @m = max(cpu); @n = min(cpu); } interval:ms:300 { exit(); }
	END { printf("c %d s %d m %d n %d\n", @c, @s, @m, @n); }'
read -r _ c _ s _ m _ n < <(grep '^c ' out)
[[ $c == $(sed -n 's/^@c: //p' out) && $s == $(sed -n 's/^@s: //p' out) &&
   $m == $(sed -n 's/^@m: //p' out) && $n == $(sed -n 's/^@n: //p' out) ]] ||
	die "the probe read differs from exit: $(cat out)"
(( s == 3 * c )) || die "sum $s is not 3 * count $c"
# what stays unreadable
for script in 'BEGIN { @s = stats(1); $x = @s; }' 'BEGIN { @h[1] = hist(1); print(@h[1]); }'; do
	"$SONDE" --dialect=0.26 -e "$script" > out 2> err && die "accepted: $script"
	grep -q 'error\[E_TYPE\]' err || die "no E_TYPE for $script: $(cat err)"
done
"$SONDE" --dialect=0.17 -e 'BEGIN { @c = count(); $x = @c; }' > out 2> err && die "0.17 read count()"
expect "-e:1:28: error[E_TYPE]: @c holds count(): its value is merged across CPUs in user space and cannot be read in a probe
BEGIN { @c = count(); \$x = @c; }
                           ^~" err
