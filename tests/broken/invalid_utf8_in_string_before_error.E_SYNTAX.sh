#!/bin/bash
# Bytes that are not UTF-8 inside a string are allowed; the line shows them as '?'.
printf 'BEGIN { $s = "\377\376"; $x = ; }\n'
