#!/bin/bash
# curtask->a.b.c... 100000 field accesses.
printf 'BEGIN { $x = curtask'
yes '.f' | head -n 100000 | tr -d '\n'
printf '; }\n'
