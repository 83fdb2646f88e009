#!/bin/bash
# #if with 100,000 parentheses inside one another, and as many '-':
# the evaluator stops at PP_MAX_DEPTH (200) levels.
printf '#if '
for ((i = 0; i < 100000; i++)); do printf '('; done
printf '1'
for ((i = 0; i < 100000; i++)); do printf ')'; done
printf '\n#endif\n#if '
for ((i = 0; i < 100000; i++)); do printf -- '- '; done
printf '1\n#endif\nBEGIN { exit(); }\n'
