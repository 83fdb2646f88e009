#!/bin/bash
# An overlong encoding of '/' (0xc0 0xaf) is not UTF-8.
printf 'BEGIN { $x = 4 \300\257 2; }\n'
