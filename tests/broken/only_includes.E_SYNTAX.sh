#!/bin/bash
printf '#include <linux/sched.h>\n#include <linux/fs.h>\n'
