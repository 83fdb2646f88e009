#!/bin/bash
printf 'interval:s:%s { }\n' "$(head -c 1000000 /dev/zero | tr '\0' 9)"
