#!/bin/bash
# 100000 nested blocks.
printf 'BEGIN '
yes '{' | head -n 100000 | tr -d '\n'
yes '}' | head -n 100000 | tr -d '\n'
echo
