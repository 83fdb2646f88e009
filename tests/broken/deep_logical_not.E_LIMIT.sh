#!/bin/bash
printf 'BEGIN { $x = '
yes '!' | head -n 100000 | tr -d '\n'
printf 'pid; }\n'
