#!/bin/bash
# A chain of 2,000 macros, each expanding to the next: expansion stops
# at PP_MAX_NEST (1,000) macros inside one another.
for ((i = 0; i < 2000; i++)); do
	echo "#define M$i M$((i + 1))"
done
echo 'BEGIN { $x = M0; }'
