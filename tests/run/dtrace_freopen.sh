#!/bin/bash
# D's freopen(): the output after it goes to the file its format names
# (appended to), freopen("") brings it back to the standard output,
# printa() follows it, a file that cannot be opened is a warning and
# the output stays where it was; a destructive action, so only with -w.
. "$SONDE_ROOT/tests/usdt/lib.sh"
D() { "$SONDE" dtrace "$@"; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
echo "before" > "$dir/f1"

out=$(D -wq -n 'BEGIN { printf("a\n"); freopen("'"$dir"'/f%d", 1); printf("b\n");
	@x = count(); printa("%@d\n", @x); freopen(""); printf("c\n");
	freopen("'"$dir"'/f2"); printf("d\n"); freopen(""); exit(0); }' 2> err)
same "stdout" "a
c" "$out"
same "f1" "before
b
1" "$(cat "$dir/f1")"
same "f2" "d" "$(cat "$dir/f2")"
[[ -s err ]] && { echo "FAIL stderr: $(cat err)"; exit 1; }

# a file that cannot be opened: a warning, the output stays
out=$(D -wq -n 'BEGIN { freopen("'"$dir"'/no/such"); printf("still\n"); exit(0); }' 2> err)
same "unopenable: output" "still" "$out"
grep -q "^dtrace: freopen(): cannot open $dir/no/such: No such file or directory$" err ||
	{ echo "FAIL unopenable: stderr: $(cat err)"; exit 1; }

# destructive: refused without -w, allowed by the pragma
D -q -n 'BEGIN { freopen("'"$dir"'/f3"); exit(0); }' > out 2> err && { echo "FAIL ran without -w"; exit 1; }
grep -q 'freopen( ) writes to files as root: destructive actions are not allowed without -w' err ||
	{ echo "FAIL without -w: $(cat err)"; exit 1; }
[[ -e $dir/f3 ]] && { echo "FAIL f3 created"; exit 1; }
printf '#pragma D option destructive\nBEGIN { freopen("%s/f3"); printf("e\\n"); exit(0); }\n' "$dir" > "$dir/p.d"
D -qs "$dir/p.d" > out 2> err || { echo "FAIL pragma destructive: $(cat err)"; exit 1; }
same "pragma" "e" "$(cat "$dir/f3")"
exit 0
