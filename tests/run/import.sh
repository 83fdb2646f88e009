#!/bin/bash
# import "PATH" (docs/language.md "Imports"): a script's macros and
# probes, a C header's types, a directory's .bt and .h files in name
# order; paths relative to the importing file; each file once; errors
# for a missing file, a cycle, BPF C, a world-writable directory.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
chmod 755 "$work"
mkdir lib sub
cat > helpers.bt <<'E'
macro greet() { printf("hello\n"); }
E
cat > lib/a.bt <<'E'
macro twice(x) { x * 2 }
begin { printf("a.bt's probe\n"); }
E
cat > lib/b.bt <<'E'
import "../helpers.bt";
macro thrice(x) { x * 3 }
E
cat > lib/types.h <<'E'
struct pair { int a; int b; };
E
cat > main.bt <<'E'
import "helpers.bt";
import "lib";
import "./helpers.bt";
begin { greet(); print(twice(4) + thrice(1) + sizeof(struct pair)); exit(); }
E
# from another directory: paths are the script's, not the shell's
(cd sub && "$SONDE" -q --dialect=0.26 ../main.bt) > out 2> err || die "main.bt: $(cat err)"
expect "a.bt's probe
hello
19

"
stderr_clean
cat > cyc1.bt <<'E'
import "cyc2.bt";
E
cat > cyc2.bt <<'E'
import "cyc1.bt";
E
printf 'import "cyc1.bt";\nbegin { exit(); }\n' > cyc.bt
printf 'import "nothere.bt";\nbegin { exit(); }\n' > miss.bt
printf 'int f(int x) { return x; }\n' > c.bpf.c
printf 'import "c.bpf.c";\nbegin { exit(); }\n' > bpfc.bt
mkdir open && chmod 777 open && cp helpers.bt open/
printf 'import "open/helpers.bt";\nbegin { exit(); }\n' > open.bt
fails() {	# fails SCRIPT TEXT: exit 1, an E_IMPORT error saying TEXT
	"$SONDE" -q "$1" > out 2> err
	[[ $? == 1 ]] || die "$1 did not fail"
	grep -q "error\[E_IMPORT\]: .*$2" err || die "$1: $(cat err)"
}
fails cyc.bt "import cycle: .*cyc1.bt imports itself"
fails miss.bt 'import "nothere.bt": No such file or directory'
fails bpfc.bt "is BPF C"
fails open.bt "is writable by everyone"
head -n 1 err | grep -q "^open.bt:1:8: error" || die "open.bt: $(cat err)"
# a config block is the main script's only
printf 'config = { max_strlen = 8 }\n' > conf.bt
printf 'import "conf.bt";\nbegin { exit(); }\n' > useconf.bt
"$SONDE" -q useconf.bt > out 2> err
[[ $? == 1 ]] && grep -q 'error\[E_CONFIG\]: a config block belongs to the script itself' err ||
	die "config in an import: $(cat err)"
echo ok
