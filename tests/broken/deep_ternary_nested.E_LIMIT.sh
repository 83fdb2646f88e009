#!/bin/bash
# a ? (a ? (a ? ...) : 0) : 0, 50000 deep
printf 'BEGIN { $x = '
yes 'pid ? ' | head -n 50000 | tr -d '\n'
printf '1'
yes ' : 0' | head -n 50000 | tr -d '\n'
printf '; }\n'
