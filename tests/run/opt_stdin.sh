#!/bin/bash
# FILE "-" reads the script from standard input; the ARGs that follow are
# still the positional parameters.
set -u
out=$(printf 'BEGIN {\n\tprintf("stdin %%d %%s %%d\\n", $1, str($2), $#);\n\texit();\n}\n' |
	"$SONDE" -q - 5 five) || { echo "sonde failed"; exit 1; }
want=$'stdin 5 five 2'
[[ $out == "$want" ]] || { diff <(echo "$want") <(echo "$out"); exit 1; }
exit 0
