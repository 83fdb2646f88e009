#!/bin/bash
# 60000 variables in one probe, then a clash on the first.
printf 'BEGIN {'
for i in $(seq 0 59999); do printf ' $v%d = 1;' "$i"; done
printf ' $v0 = "s"; }\n'
