#!/bin/bash
# uprobe:libpthread:pthread_create (threadsnoop.bt): glibc 2.34 moved
# pthread_create into libc.so.6 and left libpthread.so.0 a stub that
# needs it; the probe attaches where the dynamic linker finds the
# function, and fires with its arguments.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
lib=$(ldconfig -p | awk '/libpthread.so.0 /{print $NF; exit}')
[[ -n $lib ]] || { echo "no libpthread.so.0 here"; exit 77; }
cat > "$dir/t.c" <<'C'
#include <pthread.h>
static void *worker(void *a) { return a; }
int main(void) { pthread_t t; pthread_create(&t, NULL, worker, NULL); return pthread_join(t, NULL); }
C
cc -o "$dir/t" "$dir/t.c" -lpthread || exit 1
out=$("$SONDE" -q -c "$dir/t" -e 'uprobe:libpthread:pthread_create /pid == cpid/ { printf("%s %s\n", func, usym(arg2)); }' 2>&1)
[[ $out == "pthread_create worker" ]] || { echo "got: $out"; exit 1; }
# a function neither the library nor what it needs has stays an error
if err=$("$SONDE" -e 'uprobe:libpthread:no_such_function { }' 2>&1); then
	echo "ran: $err"; exit 1
fi
[[ $err == *"error[E_PROBE]: uprobe: function no_such_function not found in $lib"* ]] || { echo "got: $err"; exit 1; }
exit 0
