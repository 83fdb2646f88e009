// included by seeds/preproc.bt (the fuzz target reads files of
// tests/fuzz only)
#pragma once
#define HDR_VALUE (1 << 4)
#define HDR_TWICE(x) ((x) * 2)
struct hdr_pair { int a; long b; char name[TASK_COMM_LEN]; };
enum hdr_kind { HDR_A = HDR_VALUE, HDR_B };
