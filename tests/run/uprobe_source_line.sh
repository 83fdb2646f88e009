#!/bin/bash
# uprobe:PROG@FILE:LINE[:COL] (bpftrace 0.26): a uprobe on the first
# instruction of the statement at a source location, from the DWARF line
# table of tests/progs/srcline.c (built with -g): the loop's statement
# runs N times, the others once; func is the function holding it, probe
# the location as written.  FILE matches the end of the unit's file
# name, or the whole of an absolute one; a column must match; a line
# without a statement, uretprobe, and a file without DWARF are errors.
set -u
die() { echo "$*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
P=$SONDE_PROGS/srcline
S=$SONDE_ROOT/tests/progs/srcline.c
[[ -x $P ]] || die "$P not built (run make progs)"
line() { grep -n "/\* $1 \*/" "$S" | cut -d: -f1; }
loop=$(line LOOP) ret=$(line RET) call=$(line CALL)

out=$("$SONDE" --dialect=0.26 -c "$P 7" -e "uprobe:$P@srcline.c:$loop { @loop = count(); }
uprobe:$P@progs/srcline.c:$ret { @ret[func] = count(); }
uprobe:$P@$S:$call { @call[probe, func] = count(); }" 2>&1)
want="Attached 3 probes
21


@call[uprobe:$P@$S:$call, main]: 1
@loop: 7
@ret[work]: 1"
[[ $out == "$want" ]] || die "lines: $out"

# the column of the loop's statement (two tabs: column 3)
out=$("$SONDE" --dialect=0.26 -c "$P 4" -e "uprobe:$P@srcline.c:$loop:3 { @[probe] = count(); }" 2>&1)
[[ $out == "Attached 1 probe
6


@[uprobe:$P@srcline.c:$loop:3]: 4" ]] || die "column: $out"

# -l of a script
[[ $("$SONDE" -l -e "uprobe:$P@srcline.c:$loop { }") == "uprobe:$P@srcline.c:$loop" ]] || die "-l"

err() {	# err PROBE MESSAGE
	"$SONDE" --dialect=0.26 -e "$1 { }" > out 2> err && die "$1 ran"
	grep -qF "$2" err || die "$1: $(cat err)"
}
err "uprobe:$P@srcline.c:1" "uprobe: no statement of $P starts at line 1 of srcline.c"
err "uprobe:$P@srcline.c:$loop:40" "starts at line $loop, column 40 of srcline.c"
err "uprobe:$P@other.c:$loop" "starts at line $loop of other.c"
err "uretprobe:$P@srcline.c:$loop" "uretprobe: a source location takes uprobe, not uretprobe"
err "uprobe:$P@srcline.c:x" "uprobe at a source location needs a file, a source file and a line"
err "uprobe:/bin/true@true.c:10" "has no DWARF line table to find true.c:10 in"
exit 0
