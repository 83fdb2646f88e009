#!/bin/bash
printf 'BEGIN { $x = curtask->%s; }\n' "$(head -c 1000000 /dev/zero | tr '\0' f)"
