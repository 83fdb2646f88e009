#!/bin/bash
printf 'BEGIN { $x = $y'
yes '[0]' | head -n 100000 | tr -d '\n'
printf '; }\n'
