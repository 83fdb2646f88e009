#!/bin/bash
# A key of 100000 integers: far more than a probe's scratch memory.
printf 'BEGIN { @m['
yes '1, ' | head -n 99999 | tr -d '\n'
printf '1] = 1; }\n'
