#!/bin/bash
# A shared library by short name (libc, resolved like the dynamic
# linker) and by path; -p on a process started before sonde.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"; kill $pid 2>/dev/null' EXIT
cat > "$dir/p.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
int main(void) { sleep(1); for (int i = 0; i < 50; i++) free(malloc(1000 + i)); sleep(1); return 0; }
C
cc -O0 -o "$dir/p" "$dir/p.c" || exit 1
"$dir/p" & pid=$!
out=$("$SONDE" -q -p $pid -e 'uprobe:libc:malloc /arg0 >= 1000 && arg0 < 1050/ { @n = count(); @sz = sum(arg0); }' 2>&1)
want=$(printf '\n\n@n: 50\n@sz: 51225')
[[ "$out" == "$want" ]] || { echo "libc: got:"; echo "$out"; exit 1; }
libc=$(ldd "$dir/p" | awk '/libc\.so/ { print $3 }')
out=$("$SONDE" -q -c "$dir/p" -e "uprobe:$libc:free /pid == cpid/ { @f = count(); }" 2>&1)
n=$(sed -n 's/^@f: //p' <<<"$out")
(( n >= 50 )) || { echo "free by path: got: $out"; exit 1; }
exit 0
