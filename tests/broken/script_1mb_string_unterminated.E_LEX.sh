#!/bin/bash
# A string literal of 1 MB with no closing quote.
printf 'BEGIN { printf("'
head -c 1000000 /dev/zero | tr '\0' 'x'
printf '); }\n'
