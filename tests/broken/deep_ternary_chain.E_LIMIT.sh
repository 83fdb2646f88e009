#!/bin/bash
# a ? 1 : a ? 2 : ..., 50000 long
printf 'BEGIN { $x = pid'
yes ' ? 1 : pid' | head -n 50000 | tr -d '\n'
printf ' ? 1 : 0; }\n'
