#!/bin/bash
# One if with 20000 else-ifs: each nests one level deeper.
printf 'BEGIN { if (pid == 0) { }'
for i in $(seq 1 20000); do printf ' else if (pid == %d) { }' "$i"; done
printf ' }\n'
