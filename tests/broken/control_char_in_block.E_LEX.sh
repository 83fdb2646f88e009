#!/bin/bash
printf 'BEGIN { \001 }\n'
