#!/usr/bin/env python3
# bpf_ids.py progs|maps|links: the ids of every BPF program, map or link
# the kernel holds, one per line (BPF_*_GET_NEXT_ID, as bpftool lists
# them), so that a test can see what a process left behind.
import ctypes
import ctypes.util
import os
import sys

NR_BPF = {'x86_64': 321, 'aarch64': 280}[os.uname().machine]
CMD = {'progs': 11, 'maps': 12, 'links': 31}[sys.argv[1]]
libc = ctypes.CDLL(ctypes.util.find_library('c'), use_errno=True)


class Attr(ctypes.Structure):
    _fields_ = [('start_id', ctypes.c_uint32), ('next_id', ctypes.c_uint32),
                ('open_flags', ctypes.c_uint32), ('pad', ctypes.c_char * 116)]


a = Attr()
ids = []
while True:
    a.next_id = 0
    if libc.syscall(NR_BPF, CMD, ctypes.byref(a), ctypes.sizeof(a)) != 0:
        break
    ids.append(a.next_id)
    a.start_id = a.next_id
print('\n'.join(str(i) for i in ids))
