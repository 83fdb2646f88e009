#!/bin/bash
# A preprocessor error in a D program is reported as dtrace reports
# the cpp it pipes the program to: cpp's line on /dev/stdin, then
# "Preprocessor failed to process input program"; exit status 1.
. "$SONDE_ROOT/tests/usdt/lib.sh"
cd "$(mktemp -d)" || exit 1
check() {	# NAME TEXT EXPECTED-FIRST-LINE
	printf '%b' "$2" > "$1.d"
	err=$("$SONDE" dtrace -e -s "$1.d" 2>&1 >/dev/null)
	st=$?
	[[ $st == 1 ]] || { echo "FAIL $1: exit $st"; echo "$err"; exit 1; }
	same "$1" "$3
dtrace: failed to compile script $1.d: Preprocessor failed to process input program" "$err"
}
check nodefine '#define\nBEGIN { exit(0); }\n' \
	'/dev/stdin:1: error: no macro name given in #define directive'
check noendif 'BEGIN\n{\n#if 1\n\texit(0);\n}\n' \
	'/dev/stdin:3: error: unterminated #if'
check noendifelse '#if 0\n#define X 1\n#else\n#define X 2\nBEGIN { exit(X); }\n' \
	'/dev/stdin:1: error: unterminated #else'
check elsealone '#else\nBEGIN { exit(0); }\n' \
	'/dev/stdin:1: error: #else without #if'
check twoelse '#if 1\n#else\n#else\n#endif\nBEGIN { exit(0); }\n' \
	'/dev/stdin:3: error: #else after #else
/dev/stdin:1: error: the conditional began here'
check noifdefname '#ifdef\n#endif\nBEGIN { exit(0); }\n' \
	'/dev/stdin:1: error: no macro name given in #ifdef directive'
exit 0
