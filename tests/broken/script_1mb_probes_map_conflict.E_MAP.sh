#!/bin/bash
# 45000 probes, the last storing a string in an integer map.
yes 'BEGIN { @m = 1; }' | head -n 45000
printf 'END { @m = "text"; }\n'
