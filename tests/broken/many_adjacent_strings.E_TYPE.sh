#!/bin/bash
# 200000 literals glued into one string of 400000 bytes.
printf 'BEGIN { $s = '
yes '"ab" ' | head -n 200000 | tr -d '\n'
printf '; $s = 1; }\n'
