#!/bin/bash
printf 'BEGIN { $x = \200; }\n'
