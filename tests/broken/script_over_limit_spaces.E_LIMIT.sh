#!/bin/bash
# A valid probe padded with blanks to one byte over the 1 MiB limit.
printf 'BEGIN { }'
head -c 1048568 /dev/zero | tr '\0' ' '
