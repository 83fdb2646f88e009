#!/bin/bash
# pid == 1 || pid == 2 || ..., 20000 terms in a predicate.
printf 'BEGIN /pid == 0'
for i in $(seq 1 20000); do printf ' || pid == %d' "$i"; done
printf '/ { }\n'
