#!/bin/bash
# 60000 maps, then a clash on the first.
printf 'BEGIN {'
for i in $(seq 0 59999); do printf ' @m%d = 1;' "$i"; done
printf ' @m0 = "s"; }\n'
