#!/bin/bash
# 100000 opening parentheses and nothing else.
printf 'BEGIN { $x = '
yes '(' | head -n 100000 | tr -d '\n'
