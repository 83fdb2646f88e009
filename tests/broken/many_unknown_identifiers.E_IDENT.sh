#!/bin/bash
# 40000 errors: 20 are printed, the rest counted.
printf 'BEGIN {'
for i in $(seq 0 39999); do printf ' $v%d = nosuch%d;' "$i" "$i"; done
printf ' }\n'
