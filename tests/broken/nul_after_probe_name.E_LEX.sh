#!/bin/bash
# The probe name ends at the NUL, which no token may hold.
printf 'BEGIN\0 { }\n'
