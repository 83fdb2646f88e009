#!/bin/bash
# Half a million CRLF line ends, then an unclosed block.
yes $'\r' | head -n 500000
printf 'BEGIN {\r\n'
