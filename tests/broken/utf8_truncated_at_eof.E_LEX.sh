#!/bin/bash
# The first two bytes of a three-byte character, then the end of file.
printf 'BEGIN { } \342\202'
