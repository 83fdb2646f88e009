#!/bin/bash
printf 'BEGIN { '
yes '$a = 1; ' | head -n 12000 | tr -d '\n'
