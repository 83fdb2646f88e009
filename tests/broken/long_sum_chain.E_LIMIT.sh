#!/bin/bash
# 1 + 1 + ... with 100000 operators.
printf 'BEGIN { $x = 1'
yes ' + 1' | head -n 100000 | tr -d '\n'
printf '; }\n'
