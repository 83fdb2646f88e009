#!/bin/bash
# A uprobe wildcard whose block does not tell the functions apart (no
# probe, func or uaddr) attaches as one uprobe_multi program with one
# link where the kernel can (--info: uprobe_multi): entry and return
# probes count right, arguments and retval read right, -c and -p
# limit it to their process, "Attaching N probes" counts functions.
# A block that uses probe or func is one program too, its names read
# from a table by the link's cookie; one with typed args is one
# program per function.
set -u
. "$SONDE_ROOT/tests/lib/trace.sh"
"$SONDE" --info | grep -qx 'uprobe_multi: yes' || { echo "no uprobe_multi here"; exit 77; }
cat > "$work/p.c" <<'C'
#include <signal.h>
#include <stdio.h>
__attribute__((noinline)) int work_a(int x) { return x + 1; }
__attribute__((noinline)) int work_b(int x) { return x + 2; }
__attribute__((noinline)) int work_c(int x) { return x + 3; }
int main(int argc, char **argv)
{
	if (argc > 1) {		/* wait for SIGUSR1 first */
		sigset_t s;
		int sig;

		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		sigprocmask(SIG_BLOCK, &s, NULL);
		fputs("waiting\n", stderr);
		sigwait(&s, &sig);
	}
	return work_a(1) + work_b(2) + work_b(3) + work_c(4) == 0;
}
C
cc -O1 -g -o "$work/p" "$work/p.c" || exit 1
p=$work/p

out=$("$SONDE" -v -c "$p" -e "uprobe:$p:work_* { @n = count(); @a[arg0] = count(); }
	uretprobe:$p:work_* { @r[retval] = count(); }" 2>&1)
grep -qx "Attaching 6 probes..." <<< "$out" || die "probe count: $out"
grep -qx "sonde: attached uprobe:$p:work_\* (3 functions)" <<< "$out" || die "not one uprobe_multi: $out"
grep -qx "sonde: attached uretprobe:$p:work_\* (3 functions)" <<< "$out" || die "not one uretprobe_multi: $out"
want="@a[1]: 1
@a[2]: 1
@a[3]: 1
@a[4]: 1
@n: 4
@r[2]: 1
@r[4]: 1
@r[5]: 1
@r[7]: 1"
[[ $(grep '^@' <<< "$out") == "$want" ]] || die "counts: $out"

# -p: only that process; another run of the same program is not counted
: > "$work/perr"
"$p" wait 2> "$work/perr" & TRIG=$!
wait_for "$work/perr" '^waiting$' || die "program did not start"
tracer_start "$SONDE" -p "$TRIG" -e "BEGIN { printf(\"ready\\n\"); }
	uprobe:$p:work_[ab] { @n = count(); }"
"$p" || die "second run failed"
kill -USR1 "$TRIG"
wait "$TRIG"
TRIG=
wait "$TRACER" || die "sonde failed: $(cat "$work/err")"
TRACER=
expect "Attaching 3 probes...
ready


@n: 3"
stderr_clean

# probe and func tell the functions apart: still one program, which
# reads each function's names from a table its link's cookie indexes
out=$("$SONDE" -v -c "$p" -e "uprobe:$p:work_* { @[probe, func] = count(); }" 2>&1)
grep -qx "sonde: attached uprobe:$p:work_\* (3 functions)" <<< "$out" || die "probe: $out"
for f in a b c; do
	n=1
	[[ $f == b ]] && n=2
	grep -qx "@\[uprobe:$p:work_$f, work_$f\]: $n" <<< "$out" ||
		die "probe and func of work_$f: $out"
done
[[ $(grep -c '^@' <<< "$out") == 3 ]] || die "probe counts: $out"

# typed arguments differ per function: one program each
out=$("$SONDE" -v -c "$p" -e "uprobe:$p:work_* { @[args.x] = count(); }" 2>&1)
grep -qx "sonde: attached uprobe:$p:work_a" <<< "$out" || die "args: $out"
exit 0
