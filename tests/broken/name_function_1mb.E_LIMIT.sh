#!/bin/bash
printf 'BEGIN { %s(1); }\n' "$(head -c 1000000 /dev/zero | tr '\0' f)"
