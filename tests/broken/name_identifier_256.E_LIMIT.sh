#!/bin/bash
# An identifier of 256 bytes: one over the name limit.
printf 'BEGIN { %s(); }\n' "$(head -c 256 /dev/zero | tr '\0' f)"
