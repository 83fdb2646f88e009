#!/bin/bash
# A user-space probe's file may be a path relative to the working
# directory without a leading ./ (uprobe:bin/prog:fn, as bpftrace's own
# tests write it); a '/' right after the function still opens the
# predicate.
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
exit 0
