#!/bin/bash
# 50000 nested ifs.
printf 'BEGIN { '
yes 'if (pid) { ' | head -n 50000 | tr -d '\n'
yes '}' | head -n 50000 | tr -d '\n'
printf ' }\n'
