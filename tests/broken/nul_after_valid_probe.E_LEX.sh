#!/bin/bash
# A file that is text, then binary: a probe followed by NULs.
printf 'BEGIN { printf("x\\n"); }\n'
head -c 64 /dev/zero
