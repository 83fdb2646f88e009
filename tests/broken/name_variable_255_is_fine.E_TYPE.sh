#!/bin/bash
# A 255-byte variable ($ and 254 letters) is within the limit: the error
# is the type clash after it.
v=$(head -c 254 /dev/zero | tr '\0' v)
printf 'BEGIN { $%s = 1; $%s = "s"; }\n' "$v" "$v"
