#!/bin/bash
# An #include of a name longer than PATH_MAX.
printf '#include "'
head -c 5000 /dev/zero | tr '\0' a
printf '.h"\nBEGIN { exit(); }\n'
