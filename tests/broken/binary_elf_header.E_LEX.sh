#!/bin/bash
# An ELF executable given as the script.
printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\2\0\076\0'
