#!/bin/bash
# -f folded: maps keyed by stacks print as "root;...;leaf COUNT" lines,
# exactly.  The trigger (tests/progs/stacks.c) makes 3 getppid calls
# through main -> outer -> left -> leaf and 2 through right, leaf
# entering the kernel itself, so the user stacks are known frame for
# frame.  Checked:
#   - user frames outermost first, without offsets; the non-stack key
#     elements (comm) first, then user, then kernel frames;
#   - kernel frames suffixed _[k] only in a key that also holds a user
#     stack; their names are those of the text mode's stack, reversed
#     and without offsets;
#   - with several stack maps, each line starts with its map's name;
#     sum() values; max() maps and a keyless map go to stderr as text;
#   - every line is what flamegraph.pl's reader accepts (frames split
#     by ';', a space, an integer), no two lines alike, in order;
#   - a profile of the same program: the folded counts add up to the
#     number of samples (those taken in user space are "[no stack]").
# The frames above main belong to libc, which has no frame pointers:
# what the kernel finds there depends on the libc build, so they are
# replaced by "LIBC" before the comparison.
. "$SONDE_ROOT/tests/lib/trace.sh"

# flamegraph.pl's reading of a line, and sonde's promises on top of it:
# no offsets, no empty frame, positive counts, no duplicates, sorted
# frame by frame (bytewise; a stack before those it is a prefix of).
format_ok() {	# FILE: prints what is wrong
	awk '
	$0 == "ready" { next }
	{
		if (!match($0, / [0-9]+$/)) { print "no count: " $0; next }
		stack = substr($0, 1, RSTART - 1); n = substr($0, RSTART + 1) + 0
		if (n <= 0) print "count not positive: " $0
		k = split(stack, f, ";")
		for (i = 1; i <= k; i++) {
			if (f[i] == "") print "empty frame: " $0
			if (f[i] ~ /\+[0-9]+$/) print "offset in frame: " f[i]
		}
		if (stack in seen) print "duplicate stack: " stack
		for (i = 1; i <= k && i <= pk; i++)
			if (f[i] != p[i])
				break
		if (pk && (i <= k && i <= pk ? f[i] < p[i] : k < pk))
			print "out of order: " stack
		seen[stack] = 1; delete p; pk = k
		for (i = 1; i <= k; i++) p[i] = f[i]
	}' "$1"
}
libc() {
	sed -E 's/^([^;]*;foldtrig;)([^;]*;)*main;/\1LIBC;main;/'
}

prog='BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ {
	@[ustack, comm] = count(); @k[comm, kstack, ustack] = count();
	@s[kstack(perf)] = sum(5); @n = count(); @m[ustack(2)] = max(4);
	@t[kstack] = max(1); }'
TRIG_COMM=foldtrig trace stacks 3 2 -- "$SONDE" -f folded -e "$prog" @TRIG@
bad=$(format_ok "$work/out")
[[ -z $bad ]] || die "not folded format: $bad
$(cat "$work/out")"

# The kernel's frames, as folded frames, from the text of @t: a max()
# map, which prints as text on stderr.  (They come from the same run
# because they change with the kernel, and even with what else is
# tracing sys_enter: a second callback adds __traceiter_sys_enter.)
t_block=$(awk '/^@t\[$/ { on = 1 } on { print } on && /^\]/ { exit }' "$work/err")
kern=$(awk 'NR > 1 && /^    / { sub(/^ +/, ""); sub(/\+[0-9]+$/, ""); f[n++] = $0 }
	END { for (i = n - 1; i >= 0; i--) printf "%s%s", f[i], i ? ";" : "" }' <<< "$t_block")
[[ $kern == *do_syscall_64* ]] || die "no kernel stack in @t: $(cat "$work/err")"
kernk=$(sed 's/;/_[k];/g; s/$/_[k]/' <<< "$kern")

libc < "$work/out" > "$work/out.norm"
expect "ready
@;foldtrig;LIBC;main;outer;left;leaf 3
@;foldtrig;LIBC;main;outer;right;leaf 2
@k;foldtrig;LIBC;main;outer;left;leaf;$kernk 3
@k;foldtrig;LIBC;main;outer;right;leaf;$kernk 2
@s;$kern 25" "$work/out.norm"
# @m's two entries tie on their value and print in the order of their
# stack ids.
m_left='@m[
    leaf+N
    left+N
]: 4'
m_right=${m_left/left/right}
err=$(sed -E 's/\+[0-9]+$/+N/' "$work/err")
t_norm=$(sed -E 's/\+[0-9]+$/+N/' <<< "$t_block")
[[ $err == "Attaching 2 probes..."$'\n'"$m_left"$'\n'"$m_right"$'\n'"@n: 5"$'\n'"$t_norm" ||
   $err == "Attaching 2 probes..."$'\n'"$m_right"$'\n'"$m_left"$'\n'"@n: 5"$'\n'"$t_norm" ]] ||
	die "stderr is not the Attaching line, @m, @n and @t as text: $(cat "$work/err")"
[[ $t_block == *$'\n]: 1' ]] || die "@t has more than one stack: $t_block"

# One stack map: no map name.  A profile, whose samples the folded
# lines must account for (@n goes to stderr).
trace stacks 400000 400000 -- "$SONDE" -q -f folded -e '
BEGIN { printf("ready\n"); }
profile:hz:997 /pid == $1/ { @[kstack] = count(); @n = count(); }' @TRIG@
bad=$(format_ok "$work/out")
[[ -z $bad ]] || die "profile: not folded format: $bad"
sum=$(awk '$0 != "ready" { s += $NF } END { print s + 0 }' "$work/out")
n=$(sed -n 's/^@n: //p' "$work/err")
[[ -n $n ]] && (( n > 0 && sum == n )) ||
	die "profile: folded counts add up to $sum, @n is ${n:-missing}
$(cat "$work/out" "$work/err")"
grep -q '^@' "$work/out" && die "profile: a map name with one stack map: $(cat "$work/out")"
exit 0
