#!/bin/bash
# A 100 KB line with the error in its middle: shown cut on both sides.
printf 'BEGIN { '
yes '$a = 1; ' | head -n 6000 | tr -d '\n'
printf '$b = * ; '
yes '$c = 2; ' | head -n 6000 | tr -d '\n'
printf '}\n'
