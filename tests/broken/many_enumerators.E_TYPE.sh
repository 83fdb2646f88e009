#!/bin/bash
printf 'enum e { '
for i in $(seq 0 99999); do printf 'E%d, ' "$i"; done
printf '};\nBEGIN { $x = E99999; $x = "s"; }\n'
