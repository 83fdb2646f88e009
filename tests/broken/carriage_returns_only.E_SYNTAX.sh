#!/bin/bash
# Old Mac line ends: the whole script is one line.
printf 'BEGIN {\r\t$x = 1\r\t$y = 2;\r}\r'
