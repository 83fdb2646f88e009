#!/bin/bash
# 100000 prefix minus signs (spaced, not --).
printf 'BEGIN { $x = '
yes -- '- ' | head -n 100000 | tr -d '\n'
printf '1; }\n'
