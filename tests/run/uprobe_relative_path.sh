#!/bin/bash
# A user-space probe's file may be a path relative to the working
# directory without a leading ./ (uprobe:bin/prog:fn, as bpftrace's own
# tests write it); a '/' right after the function still opens the
# predicate.  Parts of a spec may be quoted, escapes and all, as in
# bpftrace (uprobe:/bin/bash:"echo_builtin"+0).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/bin"
cat > "$dir/p.c" <<'C'
__attribute__((noinline)) long twice(long a) { return a * 2; }
int main(void) { long s = 0; for (int i = 0; i < 4; i++) s += twice(i); return s == 0; }
C
cc -O1 -o "$dir/bin/p" "$dir/p.c" || exit 1
cd "$dir" || exit 1
out=$("$SONDE" -q -c bin/p -e 'uprobe:bin/p:twice/arg0 >= 2/ { printf("in %d\n", arg0); }
	ur:bin/p:twice { @[retval] = count(); }' 2>&1)
want=$(printf 'in 2\nin 3\n\n\n@[0]: 1\n@[2]: 1\n@[4]: 1\n@[6]: 1')
if [[ "$out" != "$want" ]]; then
	echo "got:"; echo "$out"; echo "want:"; echo "$want"; exit 1
fi
cat > quoted.bt <<'BT'
uprobe:"bin/p":"twi\x63e"+0 /arg0 == 3/ { printf("%s %d\n", probe, arg0); }
BT
out=$("$SONDE" -q -c bin/p quoted.bt 2>&1)
[[ $out == "uprobe:bin/p:twice 3" ]] || { echo "quoted: got: $out"; exit 1; }
exit 0
