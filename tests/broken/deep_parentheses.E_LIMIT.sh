#!/bin/bash
# 100000 nested parentheses.
printf 'BEGIN { $x = '
yes '(' | head -n 100000 | tr -d '\n'
printf '1'
yes ')' | head -n 100000 | tr -d '\n'
printf '; }\n'
