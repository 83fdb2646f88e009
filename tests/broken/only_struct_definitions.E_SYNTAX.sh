#!/bin/bash
printf 'struct a { int x; };\nenum e { ONE };\n'
