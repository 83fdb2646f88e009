#!/bin/bash
# make install into a DESTDIR puts everything a user reaches where they
# look: the binary runs, man finds sonde(8) and sonde-language(7) and
# renders them without warnings, pkg-config gives the flags with which
# a program using <sonde/sdt.h> builds and sonde lists its probe, bash
# completes options and probe names; make uninstall removes it all.
# docs/sonde-language.7 must be current with docs/language.md.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C "$SONDE_ROOT" "$@"; }
dest=$dir/stage
pre=/usr/local
mk install DESTDIR="$dest" PREFIX=$pre > "$dir/log" 2>&1 || { echo "make install failed:"; cat "$dir/log"; exit 1; }
# sonde serve's units and policy (sonde-serve(8))
for f in $pre/lib/systemd/system/sonde.socket $pre/lib/systemd/system/sonde.service \
	 /etc/sonde/policy; do
	[[ -f $dest$f ]] || { echo "not installed: $f"; fail=1; }
done
grep -qx "ExecStart=$pre/bin/sonde serve" "$dest$pre/lib/systemd/system/sonde.service" ||
	{ echo "sonde.service does not start $pre/bin/sonde serve"; fail=1; }
grep -qx "ListenStream=/run/sonde.sock" "$dest$pre/lib/systemd/system/sonde.socket" ||
	{ echo "sonde.socket does not listen on /run/sonde.sock"; fail=1; }
if command -v systemd-analyze > /dev/null; then
	# (the staged sonde is not at $pre/bin yet)
	out=$(systemd-analyze verify --man=no --recursive-errors=no \
	      "$dest$pre/lib/systemd/system/sonde.socket" \
	      "$dest$pre/lib/systemd/system/sonde.service" 2>&1 |
	      grep -v "Command $pre/bin/sonde is not executable")
	[[ -n $out ]] && { echo "systemd-analyze verify: $out"; fail=1; }
fi
for f in bin/sonde share/man/man8/sonde.8 share/man/man8/sonde-serve.8 share/man/man7/sonde-language.7 \
	 include/sonde/sdt.h lib/pkgconfig/sonde.pc \
	 share/bash-completion/completions/sonde share/sonde/examples/usdt/provider.d; do
	[[ -f $dest$pre/$f ]] || { echo "not installed: $pre/$f"; fail=1; }
done
"$dest$pre/bin/sonde" --dump=bpf -e 'BEGIN { exit(); }' > /dev/null ||
	{ echo "the installed sonde does not run"; fail=1; }
# man, as a user would: MANPATH, then the page's first lines
if command -v man > /dev/null; then
	for p in sonde sonde-serve sonde-language; do
		out=$(MANPATH=$dest$pre/share/man MANWIDTH=80 man --warnings "$p" 2>&1 > "$dir/$p.txt")
		[[ -z $out ]] || { echo "man $p warns: $out"; fail=1; }
		grep -q "^NAME" "$dir/$p.txt" || { echo "man $p: no page"; head "$dir/$p.txt"; fail=1; }
	done
	grep -q -- "--unsafe" "$dir/sonde.txt" || { echo "man sonde lacks --unsafe"; fail=1; }
	grep -q "JSON output" "$dir/sonde-language.txt" || { echo "man sonde-language lacks JSON output"; fail=1; }
fi
# pkg-config and the header
cflags=$(PKG_CONFIG_PATH=$dest$pre/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest pkg-config --cflags sonde | sed "s/ *$//") ||
	{ echo "pkg-config does not know sonde"; fail=1; }
[[ $cflags == "-I$dest$pre/include" ]] || { echo "pkg-config --cflags sonde: $cflags"; fail=1; }
cat > "$dir/app.c" <<'C'
#include <sonde/sdt.h>
int main(int argc, char **argv) { SONDE_PROBE(app, hello, argc, argv[0]); return 0; }
C
cc $cflags -o "$dir/app" "$dir/app.c" || { echo "cannot build with the installed header"; fail=1; }
[[ $("$dest$pre/bin/sonde" -l "usdt:$dir/app:*") == "usdt:$dir/app:app:hello" ]] ||
	{ echo "sonde -l does not see the probe: $("$dest$pre/bin/sonde" -l "usdt:$dir/app:*" 2>&1)"; fail=1; }
# bash completion of the installed files
out=$(bash -c '. "$1"; COMP_LINE="sonde -l tracepoint:sched:sched_process_e"; COMP_POINT=${#COMP_LINE}
	COMP_WORDS=("$2" -l tracepoint : sched : sched_process_e); COMP_CWORD=6; _sonde
	echo "${COMPREPLY[*]}"; COMP_LINE="sonde -f j"; COMP_POINT=${#COMP_LINE}; _sonde; echo "${COMPREPLY[*]}"' \
	_ "$dest$pre/share/bash-completion/completions/sonde" "$dest$pre/bin/sonde")
[[ $out == $'sched_process_exec sched_process_exit\njson' ]] || { echo "completion: $out"; fail=1; }
# the generated page is current
awk -v version="$("$dest$pre/bin/sonde" -V | cut -d' ' -f2)" -f "$SONDE_ROOT/tools/md2man.awk" \
	"$SONDE_ROOT/docs/language.md" | cmp -s - "$SONDE_ROOT/docs/sonde-language.7" ||
	{ echo "docs/sonde-language.7 is stale: run make man"; fail=1; }
mk uninstall DESTDIR="$dest" PREFIX=$pre > "$dir/log" 2>&1 || { echo "make uninstall failed:"; cat "$dir/log"; fail=1; }
left=$(find "$dest" -type f)
[[ -z $left ]] || { echo "left after uninstall: $left"; fail=1; }
exit $fail
