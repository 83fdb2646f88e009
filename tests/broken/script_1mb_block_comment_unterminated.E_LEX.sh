#!/bin/bash
# A block comment that opens and runs for 1 MB to the end of the file.
printf 'BEGIN { }\n/*\n'
yes ' * still inside the comment' | head -n 35000
