#!/bin/bash
printf 'BEGIN { $x = 1; $x'
yes '++' | head -n 100000 | tr -d '\n'
printf '; }\n'
