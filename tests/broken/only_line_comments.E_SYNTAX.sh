#!/bin/bash
printf '// one\n// two\n'
