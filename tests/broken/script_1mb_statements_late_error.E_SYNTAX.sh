#!/bin/bash
# About 1 MB of statements in one probe, then a missing operand.
printf 'BEGIN {\n'
yes '	$x = 1;' | head -n 110000
printf '	$y = ;\n}\n'
