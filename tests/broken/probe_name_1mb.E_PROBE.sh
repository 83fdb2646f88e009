#!/bin/bash
# A probe name of 1 MB: the message keeps its start and end.
printf 'BEGIN%s { }\n' "$(head -c 1000000 /dev/zero | tr '\0' x)"
