#!/bin/bash
printf 'BEGIN { printf("x"'
yes ', 1' | head -n 200000 | tr -d '\n'
printf '); }\n'
