#!/bin/bash
# 0000...01 is octal 1: fine; the error is the string after it.
printf 'BEGIN { $x = %s1; $x = "s"; }\n' "$(head -c 1000000 /dev/zero | tr '\0' 0)"
