#!/bin/bash
# A macro's argument holding its use, 5,000 deep: stopped at
# PP_MAX_DEPTH (200) arguments being expanded inside one another.
echo '#define F(x) (x)'
printf 'BEGIN { $x = '
for ((i = 0; i < 5000; i++)); do printf 'F('; done
printf '1'
for ((i = 0; i < 5000; i++)); do printf ')'; done
echo '; }'
