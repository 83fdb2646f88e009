#!/bin/bash
# @m[@m[@m[...]]], 50000 deep
printf 'BEGIN { @m[0] = 0; $x = '
yes '@m[' | head -n 50000 | tr -d '\n'
printf '0'
yes ']' | head -n 50000 | tr -d '\n'
printf '; }\n'
