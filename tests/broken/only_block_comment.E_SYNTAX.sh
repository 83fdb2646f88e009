#!/bin/bash
printf '/*\n * a header comment\n */\n'
