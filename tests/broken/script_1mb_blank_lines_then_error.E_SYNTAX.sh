#!/bin/bash
# A million newlines, then a statement outside any probe: line 1000001.
head -c 1000000 /dev/zero | tr '\0' '\n'
printf '$x = 1;\n'
