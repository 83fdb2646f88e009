#!/bin/bash
# A predicate over 40000 statements: its jump spans more than 32767.
printf 'BEGIN /pid/ {'
yes ' @x = 1;' | head -n 40000 | tr -d '\n'
printf ' }\n'
