#!/bin/bash
# A closed string literal of 1 MB: more than a probe's scratch memory.
printf 'BEGIN { printf("%%s\\n", "'
head -c 1000000 /dev/zero | tr '\0' 'x'
printf '"); }\n'
