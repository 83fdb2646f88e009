#!/bin/bash
# str(str(str(...))), 50000 deep
printf 'BEGIN { $x = '
yes 'str(' | head -n 50000 | tr -d '\n'
printf '0'
yes ')' | head -n 50000 | tr -d '\n'
printf '; }\n'
