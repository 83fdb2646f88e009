#!/bin/bash
# A raw ESC inside a string token the message quotes: shown as '?'.
printf 'BEGIN { $x = 1 "\033[2J"; }\n'
