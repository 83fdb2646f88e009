#!/bin/bash
# A macro of 300 parameters: at most 256.
printf '#define F(p0'
for ((i = 1; i < 300; i++)); do printf ', p%d' $i; done
printf ') p0\nBEGIN { exit(); }\n'
