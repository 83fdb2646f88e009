#!/bin/bash
# 50000 nested whiles.
printf 'BEGIN { '
yes 'while (1) { ' | head -n 50000 | tr -d '\n'
yes '}' | head -n 50000 | tr -d '\n'
printf ' }\n'
