#!/bin/bash
# 1 MB of line comments before a broken probe.
yes '// a comment line that goes on for a while, padding the script out' | head -n 15000
printf 'BEGIN { printf("x\\n") }}\n'
