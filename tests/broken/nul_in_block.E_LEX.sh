#!/bin/bash
# A NUL byte where a statement should be.
printf 'BEGIN { \0 }\n'
