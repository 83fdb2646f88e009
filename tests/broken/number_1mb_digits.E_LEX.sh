#!/bin/bash
printf 'BEGIN { $x = %s; }\n' "$(head -c 1000000 /dev/zero | tr '\0' 7)"
