/* cg_unwind.c - user stacks walked by the call frame information, in
 * BPF (docs/internals.md, "Unwinding without frame pointers").
 *
 * The walk is a bpf_loop() of one callback per frame over a state kept
 * in scratch (the callback looks the same per-CPU buffer up again):
 *
 *   ip, sp, bp   the registers of the frame being unwound; at first
 *                the user registers at the last entry into the kernel
 *                (bpf_task_pt_regs(current))
 *   n, hash      frames stored so far, and their running hash
 *   cache        the last mapping's range, bias, rows and their number
 *   vma          what bpf_find_vma()'s callback read of a mapping
 *   pc .. tmp    the callback's temporaries (helpers clobber r1-r5)
 *   frames       depth addresses, zeroed first
 *
 * Per frame: store ip; pc = ip (ip - 1 past the first frame: a return
 * address may be the first byte of the next function); the mapping
 * holding pc, from the cache or bpf_find_vma() (its file's device and
 * inode, its range and file offset); the file's rows by that key
 * (run/unwind.c), the segment holding the offset, then the row by a
 * binary search; compute the CFA, read the return address and the
 * saved frame pointer from the user stack.  No file (anonymous memory:
 * JIT code), no rows yet (reported once: user space loads them), no
 * row or a row that says so: one step by the frame pointer instead,
 * so stacks mixing both kinds of code go on.
 *
 * The frames then go into a hash map of the depth, keyed by a 31-bit
 * hash with bit 31 set (a stack map's ids are below 2^31, so printers
 * tell the two apart); an entry holding other frames under that key
 * makes the next key tried, three times.  The value is then ustack's:
 * 1 + the key, or 0 for no stack.
 */
#include "bpf/cg_int.h"

#include <unistd.h>

#include "base/arch.h"
#include "catalog/cfi.h"

/* the state, at offsets from its scratch base */
enum {
	W_IP = 0, W_SP = 8, W_BP = 16, W_N = 24, W_HASH = 32,
	W_PC = 40, W_REL = 48, W_LO = 56, W_HI = 64, W_KEY = 72,
	W_FILE = 80, W_CFA = 88, W_FPK = 96, W_FPO = 104, W_TMP = 112,
	/* the cached mapping: [start, end), pc - base is the file's
	 * virtual address, its rows and their number */
	W_CSTART = 128, W_CEND = 136, W_CBASE = 144, W_CFILE = 152,
	W_CROWS = 160,
	/* bpf_find_vma()'s callback: the file's key {dev, ino}, the
	 * mapping's start, end, file offset, whether it has a file; then
	 * the miss record, the key of the mappings met */
	W_VDEV = 168, W_VINO = 176, W_VSTART = 184, W_VEND = 192,
	W_VOFF = 200, W_VFILE = 208,
	W_MISS = 216,		/* struct unw_miss: 48 bytes */
	W_MKEY = 264,		/* struct unw_map_key */
	W_FRAMES = 280,
};

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
#define ROW_STEPS 32		/* rows of a file: below 2^31 */
#define TRIES 3

static void ld(struct cg *g, int reg, int base, int off)
{
	cg_emit(g, LDX(BPF_DW, reg, RSCR, (int16_t)(base + off)));
}

static void st(struct cg *g, int base, int off, int reg)
{
	cg_emit(g, STX(BPF_DW, RSCR, (int16_t)(base + off), reg));
}

/* r2 = &state[off] */
static void addr(struct cg *g, int reg, int base, int off)
{
	cg_emit(g, MOV_REG(reg, RSCR));
	cg_emit(g, ALU64_IMM(BPF_ADD, reg, base + off));
}

/* Sign-extend the low BITS of REG. */
static void sext(struct cg *g, int reg, int bits)
{
	cg_emit(g, ALU64_IMM(BPF_LSH, reg, 64 - bits));
	cg_emit(g, ALU64_IMM(BPF_ARSH, reg, 64 - bits));
}

/* long cb(task, vma, ctx) of bpf_find_vma(): the mapping's range, file
 * offset, and its file's key (W_VFILE 1) into the state at args[0].
 * r6 task, r7 vma (emit_func). */
static void read_vma(struct cg *g, struct node *n, const int *args)
{
	const int (*o)[2] = g->c->unw_btf;
	int b = args[0], done = cg_label(g);

	(void)n;
	cg_emit(g, LDX(cg_size_code(o[0][1]), R1, R7, (int16_t)o[0][0]));
	st(g, b, W_VSTART, R1);
	cg_emit(g, LDX(cg_size_code(o[2][1]), R1, R7, (int16_t)o[2][0]));
	cg_emit(g, ALU64_IMM(BPF_LSH, R1,
			     __builtin_ctz((unsigned)getpagesize())));
	st(g, b, W_VOFF, R1);
	cg_emit(g, LDX(cg_size_code(o[1][1]), R1, R7, (int16_t)o[1][0]));
	st(g, b, W_VEND, R1);
	cg_emit(g, LDX(cg_size_code(o[3][1]), R1, R7, (int16_t)o[3][0]));
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), done);		/* vm_file */
	cg_emit(g, LDX(cg_size_code(o[4][1]), R2, R1, (int16_t)o[4][0]));
	cg_jump(g, JMP_IMM(BPF_JEQ, R2, 0), done);		/* f_inode */
	cg_emit(g, LDX(cg_size_code(o[5][1]), R3, R2, (int16_t)o[5][0]));
	st(g, b, W_VINO, R3);					/* i_ino */
	cg_emit(g, LDX(cg_size_code(o[6][1]), R3, R2, (int16_t)o[6][0]));
	cg_jump(g, JMP_IMM(BPF_JEQ, R3, 0), done);		/* i_sb */
	cg_emit(g, LDX(cg_size_code(o[7][1]), R4, R3, (int16_t)o[7][0]));
	st(g, b, W_VDEV, R4);					/* s_dev */
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_VFILE), 1));
	cg_bind(g, done);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());
}

/* Report the file of the mapping just read (its key not in the misses'
 * hash yet): user space loads its rows. */
static void report_miss(struct cg *g, int b)
{
	int sent = cg_label(g);

	cg_ld_map(g, R1, RELOC_UNW_FD, 2);
	addr(g, R2, b, W_VDEV);
	addr(g, R3, b, W_VDEV);		/* any byte: the value is unused */
	cg_emit(g, MOV_IMM(R4, BPF_NOEXIST));
	cg_call(g, BPF_FUNC_map_update_elem);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), sent);	/* reported before */
	cg_imm(g, R1, (int64_t)EVID_UNW_FILE);
	st(g, b, W_MISS, R1);
	ld(g, R1, b, W_VDEV);
	st(g, b, W_MISS + 8, R1);
	ld(g, R1, b, W_VINO);
	st(g, b, W_MISS + 16, R1);
	cg_ns_pid(g);		/* its /proc entry in sonde's namespace */
	cg_emit(g, ALU64_IMM(BPF_RSH, R0, 32));
	st(g, b, W_MISS + 24, R0);
	ld(g, R1, b, W_VSTART);
	st(g, b, W_MISS + 32, R1);
	ld(g, R1, b, W_VEND);
	st(g, b, W_MISS + 40, R1);
	cg_ld_map(g, R1, RELOC_RINGBUF_FD, 0);
	addr(g, R2, b, W_MISS);
	cg_emit(g, MOV_IMM(R3, (int32_t)sizeof(struct unw_miss)));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_ringbuf_output);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), sent);
	cg_ld_map(g, R1, RELOC_UNW_FD, 2);	/* lost: forget, retry */
	addr(g, R2, b, W_VDEV);
	cg_call(g, BPF_FUNC_map_delete_elem);
	cg_bind(g, sent);
}

/* state[DST] = the address of the segment's bound at OFF of the file's
 * information r0 (r4: the address of file offset 0), or state[LIMIT]
 * (the mapping's own bound) unless JOP holds between the two. */
static void seg_bound(struct cg *g, int b, int off, int limit, int jop,
		      int dst)
{
	int keep = cg_label(g);

	cg_emit(g, LDX(BPF_DW, R1, R0, (int16_t)off));
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R4));
	ld(g, R5, b, limit);
	cg_jump(g, JMP_REG(jop, R1, R5), keep);
	cg_emit(g, MOV_REG(R1, R5));
	cg_bind(g, keep);
	st(g, b, dst, R1);
}

/* The mapping holding state[W_PC] into the cache (and W_REL, W_HI,
 * W_FILE for the row search), or jump to FP: from this walk's last
 * mapping, the mappings met before (by address space and region), or
 * bpf_find_vma() and the file's rows. */
static void find_mapping(struct cg *g, int b, int fp)
{
	int cached = cg_label(g), lookup = cg_label(g), found = cg_label(g);
	int vma = cg_label(g), file = cg_label(g), learn = cg_label(g);
	int vma_cb = cg_loop_callback(g, NULL, read_vma,
				      (const int[CG_CB_ARGS]){ b });
	const int (*o)[2] = g->c->unw_btf;

	ld(g, R2, b, W_PC);
	ld(g, R1, b, W_CSTART);
	cg_jump(g, JMP_REG(BPF_JGT, R1, R2), lookup);
	ld(g, R1, b, W_CEND);
	cg_jump(g, JMP_REG(BPF_JGT, R1, R2), cached);
	cg_bind(g, lookup);
	cg_call(g, BPF_FUNC_get_current_task_btf);
	cg_emit(g, LDX(cg_size_code(o[8][1]), R1, R0, (int16_t)o[8][0]));
	st(g, b, W_MKEY, R1);					/* mm */
	ld(g, R2, b, W_PC);
	cg_emit(g, ALU64_IMM(BPF_RSH, R2, UNW_REGION_SHIFT));
	st(g, b, W_MKEY + 8, R2);
	cg_ld_map(g, R1, RELOC_UNW_FD, 3);
	addr(g, R2, b, W_MKEY);
	cg_call(g, BPF_FUNC_map_lookup_elem);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), vma);
	ld(g, R2, b, W_PC);
	cg_emit(g, LDX(BPF_DW, R1, R0, 0));
	cg_jump(g, JMP_REG(BPF_JGT, R1, R2), vma);
	cg_emit(g, LDX(BPF_DW, R1, R0, 8));
	cg_jump(g, JMP_REG(BPF_JLE, R1, R2), vma);
	for (int k = 0; k < 5; k++) {
		cg_emit(g, LDX(BPF_DW, R1, R0, (int16_t)(8 * k)));
		st(g, b, W_CSTART + 8 * k, R1);
	}
	cg_jump(g, JA(), cached);

	cg_bind(g, vma);
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_CEND), 0));
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_VEND), 0));
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_VFILE), 0));
	cg_call(g, BPF_FUNC_get_current_task_btf);
	cg_emit(g, MOV_REG(R1, R0));
	ld(g, R2, b, W_PC);
	ir_ld_func(&g->ir, R3, vma_cb);
	cg_emit(g, MOV_IMM(R4, 0));
	cg_emit(g, MOV_IMM(R5, 0));
	cg_call(g, BPF_FUNC_find_vma);
	/* none (or busy: in NMI context one call per event succeeds) */
	ld(g, R1, b, W_VEND);
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), fp);
	ld(g, R1, b, W_VFILE);
	cg_jump(g, JMP_IMM(BPF_JNE, R1, 0), file);
	/* anonymous memory: remembered as frame-pointer code */
	ld(g, R1, b, W_VSTART);
	st(g, b, W_CSTART, R1);
	ld(g, R1, b, W_VEND);
	st(g, b, W_CEND, R1);
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_CROWS), 0));
	cg_jump(g, JA(), learn);
	cg_bind(g, file);
	cg_ld_map(g, R1, RELOC_UNW_FD, 0);
	addr(g, R2, b, W_VDEV);
	cg_call(g, BPF_FUNC_map_lookup_elem);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), found);
	report_miss(g, b);
	cg_jump(g, JA(), fp);
	cg_bind(g, found);
	/* off = pc - start + file offset; the segment [lo, hi) holding it
	 * gives vaddr = off - delta: base = start - file offset + delta */
	ld(g, R2, b, W_PC);
	ld(g, R1, b, W_VSTART);
	cg_emit(g, ALU64_REG(BPF_SUB, R2, R1));
	ld(g, R1, b, W_VOFF);
	cg_emit(g, ALU64_REG(BPF_ADD, R2, R1));		/* off */
	cg_emit(g, LDX(BPF_W, R3, R0, 8));		/* nseg */
	for (int i = 0; i < UNW_SEGS; i++) {
		int next = cg_label(g), seg = 16 + 24 * i;

		cg_jump(g, JMP_IMM(BPF_JLE, R3, i), fp);
		cg_emit(g, LDX(BPF_DW, R1, R0, (int16_t)seg));
		cg_jump(g, JMP_REG(BPF_JGT, R1, R2), next);
		cg_emit(g, LDX(BPF_DW, R1, R0, (int16_t)(seg + 8)));
		cg_jump(g, JMP_REG(BPF_JLE, R1, R2), next);
		/* the cache: [start, end) of the mapping within the
		 * segment, base, rows */
		ld(g, R4, b, W_VSTART);
		ld(g, R5, b, W_VOFF);
		cg_emit(g, ALU64_REG(BPF_SUB, R4, R5));	/* start - foff */
		cg_emit(g, LDX(BPF_DW, R1, R0, (int16_t)(seg + 16)));
		cg_emit(g, ALU64_REG(BPF_ADD, R1, R4));
		st(g, b, W_CBASE, R1);
		seg_bound(g, b, seg, W_VSTART, BPF_JGE, W_CSTART);	/* lo */
		seg_bound(g, b, seg + 8, W_VEND, BPF_JLE, W_CEND);	/* hi */
		cg_emit(g, LDX(BPF_W, R1, R0, 0));	/* index */
		st(g, b, W_CFILE, R1);
		cg_emit(g, LDX(BPF_W, R1, R0, 4));	/* nrows */
		st(g, b, W_CROWS, R1);
		cg_jump(g, JA(), learn);
		cg_bind(g, next);
	}
	cg_jump(g, JA(), fp);
	cg_bind(g, learn);
	cg_ld_map(g, R1, RELOC_UNW_FD, 3);
	addr(g, R2, b, W_MKEY);
	addr(g, R3, b, W_CSTART);
	cg_emit(g, MOV_IMM(R4, BPF_ANY));
	cg_call(g, BPF_FUNC_map_update_elem);
	cg_bind(g, cached);
	ld(g, R1, b, W_CROWS);
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), fp);
	ld(g, R2, b, W_PC);
	ld(g, R1, b, W_CBASE);
	cg_emit(g, ALU64_REG(BPF_SUB, R2, R1));
	st(g, b, W_REL, R2);
	ld(g, R1, b, W_CROWS);
	st(g, b, W_HI, R1);
	ld(g, R1, b, W_CFILE);
	st(g, b, W_FILE, R1);
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_LO), 0));
}

/* r0 = the row covering state[W_REL] in the rows' map r8 (its size in
 * state[W_HI]), or jump to FP. */
static void find_row(struct cg *g, int b, int fp)
{
	int done = cg_label(g);

	for (int i = 0; i < ROW_STEPS; i++) {
		int left = cg_label(g), next = cg_label(g);

		ld(g, R1, b, W_LO);
		ld(g, R2, b, W_HI);
		cg_jump(g, JMP_REG(BPF_JGE, R1, R2), done);
		cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
		cg_emit(g, ALU64_IMM(BPF_RSH, R1, 1));
		st(g, b, W_KEY, R1);
		cg_emit(g, MOV_REG(R1, R8));
		addr(g, R2, b, W_KEY);
		cg_call(g, BPF_FUNC_map_lookup_elem);
		cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), fp);
		cg_emit(g, LDX(BPF_W, R1, R0, 0));	/* row pc */
		ld(g, R2, b, W_REL);
		cg_jump(g, JMP_REG(BPF_JGT, R1, R2), left);
		ld(g, R1, b, W_KEY);
		cg_emit(g, ALU64_IMM(BPF_ADD, R1, 1));
		st(g, b, W_LO, R1);
		cg_jump(g, JA(), next);
		cg_bind(g, left);
		ld(g, R1, b, W_KEY);
		st(g, b, W_HI, R1);
		cg_bind(g, next);
	}
	cg_bind(g, done);
	ld(g, R1, b, W_LO);
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), fp);
	cg_emit(g, ALU64_IMM(BPF_SUB, R1, 1));
	st(g, b, W_KEY, R1);
	cg_emit(g, MOV_REG(R1, R8));
	addr(g, R2, b, W_KEY);
	cg_call(g, BPF_FUNC_map_lookup_elem);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), fp);
}

/* One step by row r0: the caller's ip, sp and bp; jump to STOP at the
 * outermost frame or an unreadable stack, to FP for no rule. */
static void cfi_step(struct cg *g, int b, int stop, int fp)
{
	int bp_base = cg_label(g), have = cg_label(g), no_fp = cg_label(g);

	cg_emit(g, LDX(BPF_B, R1, R0, 4));	/* cfa */
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, CFI_CFA_END), stop);
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, CFI_CFA_FP), fp);
	cg_emit(g, LDX(BPF_W, R2, R0, 8));	/* cfa_off */
	sext(g, R2, 32);
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, CFI_CFA_BP), bp_base);
	ld(g, R3, b, W_SP);
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R2));
	cg_jump(g, JMP_IMM(BPF_JNE, R1, CFI_CFA_PLT), have);
	ld(g, R4, b, W_IP);
	cg_emit(g, ALU64_IMM(BPF_AND, R4, 15));
	cg_emit(g, LDX(BPF_B, R5, R0, 6));	/* aux */
	cg_jump(g, JMP_REG(BPF_JLT, R4, R5), have);
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, 8));
	cg_jump(g, JA(), have);
	cg_bind(g, bp_base);
	ld(g, R3, b, W_BP);
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R2));
	cg_bind(g, have);
	st(g, b, W_CFA, R3);
	cg_emit(g, LDX(BPF_B, R1, R0, 5));	/* fp */
	st(g, b, W_FPK, R1);
	cg_emit(g, LDX(BPF_H, R1, R0, 12));	/* fp_off */
	sext(g, R1, 16);
	st(g, b, W_FPO, R1);
	cg_emit(g, LDX(BPF_H, R4, R0, 14));	/* ra_off */
	sext(g, R4, 16);
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R4));
	addr(g, R1, b, W_TMP);
	cg_emit(g, MOV_IMM(R2, 8));
	cg_call(g, BPF_FUNC_probe_read_user);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), stop);
	ld(g, R1, b, W_FPK);
	cg_jump(g, JMP_IMM(BPF_JNE, R1, CFI_FP_AT), no_fp);
	ld(g, R3, b, W_CFA);
	ld(g, R1, b, W_FPO);
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R1));
	addr(g, R1, b, W_BP);
	cg_emit(g, MOV_IMM(R2, 8));
	cg_call(g, BPF_FUNC_probe_read_user);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), stop);
	cg_bind(g, no_fp);
	ld(g, R1, b, W_CFA);
	st(g, b, W_SP, R1);
	ld(g, R1, b, W_TMP);
	st(g, b, W_IP, R1);
}

/* One step by the frame pointer: {saved bp, return address} at bp. */
static void fp_step(struct cg *g, int b, int stop)
{
	int up = cg_label(g);

	ld(g, R3, b, W_BP);
	cg_jump(g, JMP_IMM(BPF_JEQ, R3, 0), stop);
	addr(g, R1, b, W_TMP);
	cg_emit(g, MOV_IMM(R2, 16));
	cg_call(g, BPF_FUNC_probe_read_user);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), stop);
	ld(g, R1, b, W_BP);
	cg_emit(g, MOV_REG(R2, R1));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 16));
	st(g, b, W_SP, R2);
	/* a caller's frame is above its callee's: anything else ends the
	 * chain after this frame */
	ld(g, R2, b, W_TMP);
	cg_jump(g, JMP_REG(BPF_JGT, R2, R1), up);
	cg_emit(g, MOV_IMM(R2, 0));
	cg_bind(g, up);
	st(g, b, W_BP, R2);
	ld(g, R1, b, W_TMP + 8);
	st(g, b, W_IP, R1);
}

/* long cb(u64 i, void *): frame i (r6), the state at args[0] of
 * scratch, args[1] frames at most. */
static void walk_frame(struct cg *g, struct node *n, const int *args)
{
	int b = args[0], depth = args[1];
	int stop = cg_label(g), fp = cg_label(g), first = cg_label(g);

	(void)n;
	ld(g, R1, b, W_IP);
	cg_jump(g, JMP_IMM(BPF_JSLE, R1, 0), stop);	/* none, or kernel */
	cg_jump(g, JMP_IMM(BPF_JGE, RCTX, depth), stop);
	cg_emit(g, MOV_REG(R2, RCTX));
	cg_emit(g, ALU64_IMM(BPF_LSH, R2, 3));
	cg_emit(g, ALU64_REG(BPF_ADD, R2, RSCR));
	cg_emit(g, STX(BPF_DW, R2, (int16_t)(b + W_FRAMES), R1));
	cg_emit(g, MOV_REG(R2, RCTX));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
	st(g, b, W_N, R2);
	ld(g, R2, b, W_HASH);
	cg_emit(g, ALU64_REG(BPF_XOR, R2, R1));
	cg_imm(g, R3, (int64_t)FNV_PRIME);
	cg_emit(g, ALU64_REG(BPF_MUL, R2, R3));
	st(g, b, W_HASH, R2);
	cg_jump(g, JMP_IMM(BPF_JEQ, RCTX, 0), first);
	cg_emit(g, ALU64_IMM(BPF_SUB, R1, 1));
	cg_bind(g, first);
	st(g, b, W_PC, R1);

	find_mapping(g, b, fp);
	cg_ld_map(g, R1, RELOC_UNW_FD, 1);
	addr(g, R2, b, W_FILE);
	cg_call(g, BPF_FUNC_map_lookup_elem);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), fp);
	cg_emit(g, MOV_REG(R8, R0));
	find_row(g, b, fp);
	cfi_step(g, b, stop, fp);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());

	cg_bind(g, fp);
	fp_step(g, b, stop);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());

	cg_bind(g, stop);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_emit(g, EXIT());
}

/* The frames at F (DEPTH of them, in scratch) into the stacks' map
 * of their depth: r0 = 1 + the key, or 0 when every key tried holds
 * another stack (counted as a lost stack). */
static void intern(struct cg *g, int b, int depth, int map)
{
	int found = cg_label(g), none = cg_label(g), done = cg_label(g);

	ld(g, R1, b, W_HASH);
	cg_emit(g, MOV_REG(R2, R1));
	cg_emit(g, ALU64_IMM(BPF_RSH, R2, 32));
	cg_emit(g, ALU64_REG(BPF_XOR, R1, R2));
	cg_emit(g, ALU32_IMM(BPF_OR, R1, (int32_t)0x80000000u));
	st(g, b, W_KEY, R1);
	for (int t = 0; t < TRIES; t++) {
		int next = cg_label(g);

		cg_ld_map(g, R1, RELOC_DWSTACK_FD, map);
		addr(g, R2, b, W_KEY);
		addr(g, R3, b, W_FRAMES);
		cg_emit(g, MOV_IMM(R4, BPF_NOEXIST));
		cg_call(g, BPF_FUNC_map_update_elem);
		cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), found);
		cg_ld_map(g, R1, RELOC_DWSTACK_FD, map);
		addr(g, R2, b, W_KEY);
		cg_call(g, BPF_FUNC_map_lookup_elem);
		cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), next);
		for (int k = 0; k < depth; k++) {
			cg_emit(g, LDX(BPF_DW, R1, R0, (int16_t)(8 * k)));
			ld(g, R2, b, W_FRAMES + 8 * k);
			cg_jump(g, JMP_REG(BPF_JNE, R1, R2), next);
		}
		cg_jump(g, JA(), found);
		cg_bind(g, next);
		ld(g, R1, b, W_KEY);
		cg_emit(g, ALU32_IMM(BPF_ADD, R1, 1));
		cg_emit(g, ALU32_IMM(BPF_OR, R1, (int32_t)0x80000000u));
		st(g, b, W_KEY, R1);
	}
	cg_count_stat(g, STATS_STACKS(g->c));
	cg_jump(g, JA(), none);
	cg_bind(g, found);
	cg_emit(g, LDX(BPF_W, R0, RSCR, (int16_t)(b + W_KEY)));
	cg_emit(g, ALU64_IMM(BPF_ADD, R0, 1));
	cg_jump(g, JA(), done);
	cg_bind(g, none);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, done);
}

void cg_dwstack(struct cg *g, struct node *n)
{
	int depth = n->ty->sdepth, saved = g->scratch;
	struct mem s = cg_scratch_alloc(g, W_FRAMES + 8 * depth, n);
	int b = s.off, none = cg_label(g), done = cg_label(g);
	int args[CG_CB_ARGS] = { b, depth };
	int label = cg_loop_callback(g, n, walk_frame, args);

	g->atomic = true;	/* per-CPU scratch across the loop */
	cg_zero(g, (struct mem){ RSCR, b + W_FRAMES }, 0, 8 * depth);
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_N), 0));
	cg_imm(g, R1, (int64_t)FNV_OFFSET);
	st(g, b, W_HASH, R1);
	cg_call(g, BPF_FUNC_get_current_task_btf);
	cg_emit(g, MOV_REG(R1, R0));
	cg_call(g, BPF_FUNC_task_pt_regs);
	cg_emit(g, LDX(BPF_DW, R1, R0, PT_REGS_IP));
	st(g, b, W_IP, R1);
	cg_emit(g, LDX(BPF_DW, R1, R0, PT_REGS_SP));
	st(g, b, W_SP, R1);
	cg_emit(g, LDX(BPF_DW, R1, R0, PT_REGS_BP));
	st(g, b, W_BP, R1);
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_CSTART), 0));
	cg_emit(g, ST_IMM(BPF_DW, RSCR, (int16_t)(b + W_CEND), 0));
	cg_emit(g, MOV_IMM(R1, depth));
	ir_ld_func(&g->ir, R2, label);
	cg_emit(g, MOV_IMM(R3, 0));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_loop);
	ld(g, R1, b, W_N);
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), none);
	intern(g, b, depth, sema_stack_map(g->c, depth));
	cg_jump(g, JA(), done);
	cg_bind(g, none);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, done);
	g->scratch = saved;
}
