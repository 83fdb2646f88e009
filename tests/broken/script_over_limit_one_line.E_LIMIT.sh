#!/bin/bash
# One line of 1.5 MB: the error shows a cut of the line.
printf 'BEGIN { $x = 1; '
yes '$x = $x + 1; ' | head -n 120000 | tr -d '\n'
printf '}\n'
