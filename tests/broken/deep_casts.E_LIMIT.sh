#!/bin/bash
printf 'BEGIN { $x = '
yes '(uint8)' | head -n 100000 | tr -d '\n'
printf 'pid; }\n'
