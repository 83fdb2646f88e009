#!/bin/bash
# 100000 attach points in one list, the last one missing.
yes 'BEGIN,' | head -n 100000 | tr -d '\n'
printf ' { }\n'
