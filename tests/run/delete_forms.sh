#!/bin/bash
# delete(): 0.26's delete(@m, key), delete(@m, (k1, k2)) and delete(@m)
# with their value (1 when the entry was there), the older
# delete(@m[key]); 0.17's delete(@m[k1], @m[k2]) under --dialect=0.17,
# an error under 0.26.  A deleted keyless count() prints as an empty
# map today (0.17 printed it as 0).
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
"$SONDE" -q --dialect=0.26 -e 'BEGIN {
	@a[1] = 1; @a[2] = 2; @a[3] = 3; @a[4] = 4;
	@t[1, "x"] = 5; @t[2, "y"] = 6;
	@s = 7; @c = count();
	delete(@a, 1);
	printf("%d %d\n", delete(@a, 2), delete(@a, 9));
	if (delete(@t, (1, "x"))) { printf("deleted (1, x)\n"); }
	if (!delete(@t, (1, "x"))) { printf("(1, x) is gone\n"); }
	$r = delete(@s);
	printf("%d %d\n", $r, delete(@s));
	delete(@a[3]);
	delete(@c);
	exit(); }' > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "1 0
deleted (1, x)
(1, x) is gone
1 0


@a[4]: 4


@t[2, y]: 6"
"$SONDE" -q --dialect=0.17 -e 'BEGIN { @b[1] = 1; @b[2] = 2; @b[3] = 3; delete(@b[1], @b[2]); exit(); }' > out 2> err ||
	die "sonde failed: $(cat err)"
stderr_clean
expect "

@b[3]: 3"
"$SONDE" --dialect=0.26 -e 'BEGIN { @b[1] = 1; delete(@b[1], @b[2]); }' > out 2> err && die "0.26 took two elements"
expect "-e:1:27: error[E_ARGS]: delete() takes a map without keys, then the key: delete(@b, key) (several elements at once only with --dialect=0.17)
BEGIN { @b[1] = 1; delete(@b[1], @b[2]); }
                          ^~~~~" err
# 0.26: a failed delete() whose value is dropped warns, at run time
"$SONDE" -q --dialect=0.26 -e 'config = { print_maps_on_exit = 0 } BEGIN { @a[1] = 1; delete(@a, 1); delete(@a, 2); if (delete(@a, 3)) { } $x = delete(@a, 4); exit(); }' > out 2> err ||
	die "sonde failed: $(cat err)"
expect "-e:1:78: warning: Failed to map_delete_elem: No such file or directory (-2)
config = { print_maps_on_exit = 0 } BEGIN { @a[1] = 1; delete(@a, 1); delete(@a, 2); if (delete(@a, 3)) { } \$x = delete(@a, 4); exit(); }
                                                                             ^~" err
