#!/bin/bash
printf 'BEGIN { @%s = 1; }\n' "$(head -c 255 /dev/zero | tr '\0' m)"
