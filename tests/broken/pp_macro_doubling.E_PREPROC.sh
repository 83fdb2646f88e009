#!/bin/bash
# Each macro twice the one before: 2^40 tokens, stopped at PP_MAX_MADE
# (an argument is expanded whole before the body takes it).
echo '#define A0 1 +'
for ((i = 1; i <= 40; i++)); do
	echo "#define A$i A$((i - 1)) A$((i - 1))"
done
echo '#define ID(x) x'
echo 'BEGIN { $x = ID(A40) 1; }'
