#!/bin/bash
for i in $(seq 0 29999); do printf 'struct s%d { int a; long b; };\n' "$i"; done
printf 'BEGIN { $x = sizeof(struct s29999) + ; }\n'
