#!/bin/bash
# $ and 255 letters: 256 bytes with the sigil.
printf 'BEGIN { $%s = 1; }\n' "$(head -c 255 /dev/zero | tr '\0' v)"
