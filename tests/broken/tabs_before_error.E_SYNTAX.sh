#!/bin/bash
# Tabs count one column each; the caret still lines up.
printf 'BEGIN {\n\t\t$x =\t\t;\n}\n'
