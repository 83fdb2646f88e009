#!/bin/bash
# A Latin-1 'e acute' (0xe9): the file is not UTF-8.
printf 'BEGIN { $caf\351 = 1; }\n'
