#!/bin/bash
printf 'BEGIN /'
yes '(' | head -n 100000 | tr -d '\n'
printf 'pid'
yes ')' | head -n 100000 | tr -d '\n'
printf '/ { }\n'
