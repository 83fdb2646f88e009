/* sonde/sdt.h - static probes (USDT) for C and C++ programs.
 *
 * A probe costs one NOP where it stands, and describes itself in an ELF
 * note that sonde, bpftrace, perf and gdb read (the .note.stapsdt
 * format of SystemTap's sys/sdt.h, version 3).  Tracing puts a
 * breakpoint on the NOP; untraced, the program runs the NOP and the
 * moves that place the arguments, nothing more.
 *
 *   SONDE_PROBE(provider, name, arg...)       a probe with 0 to 12
 *                                             integer or pointer args
 *   SONDE_SEMAPHORE(provider, name);          define its semaphore (once
 *                                             per executable or library,
 *                                             at file scope)
 *   SONDE_SEMAPHORE_EXTERN(provider, name);   declare it elsewhere
 *   SONDE_PROBE_SEM(provider, name, arg...)   a probe that names its
 *                                             semaphore in its note
 *   SONDE_ENABLED(provider, name)             is it traced right now?
 *
 *   SONDE_SEMAPHORE(myapp, query__done);
 *   ...
 *   SONDE_PROBE(myapp, query__start, id, sql);
 *   if (SONDE_ENABLED(myapp, query__done))
 *           SONDE_PROBE_SEM(myapp, query__done, id, expensive_summary());
 *
 * The semaphore is an unsigned short in section .probes that the
 * kernel increments while a tracer has a probe naming it attached (the
 * uprobe reference counter), so the arguments of a guarded probe are
 * only computed while someone is looking.  Provider and name are
 * written to the note as spelled; `sonde dtrace -h` writes headers
 * whose probe names have "__" turned into "-", as DTrace does.
 *
 * Arguments are evaluated once each, converted as by assignment to a
 * variable of their own type (arrays become pointers), and described
 * in the note by size and sign: "-4@%edi" is a signed 4-byte value in
 * %edi; "8@$5" the constant 5; "-8@16(%rbp)" memory.  Floating-point
 * arguments are passed as their bits.  A probe reads its arguments
 * but not what they point to: see SONDE_SDT_MEMORY below.  Needs GCC
 * 4.9 or Clang 3.8 (__auto_type) on x86_64; elsewhere, or with
 * SONDE_SDT_DISABLE defined, the macros compile to nothing.
 */
#ifndef SONDE_SDT_H
#define SONDE_SDT_H

#define _SONDE_SDT_SEM(provider, name) provider##_##name##_semaphore

#if defined(__x86_64__) && defined(__GNUC__) && !defined(SONDE_SDT_DISABLE)

#define SONDE_SEMAPHORE(provider, name)					\
	__extension__ unsigned short _SONDE_SDT_SEM(provider, name)	\
	__attribute__((section(".probes"), used, visibility("hidden")))
#define SONDE_SEMAPHORE_EXTERN(provider, name)				\
	extern unsigned short _SONDE_SDT_SEM(provider, name)		\
	__attribute__((visibility("hidden")))
/* volatile: the kernel changes it behind the compiler's back */
#define SONDE_ENABLED(provider, name)					\
	__builtin_expect(*(volatile unsigned short *)			\
			 &_SONDE_SDT_SEM(provider, name) != 0, 0)

/* The size of a value in the note: negative if its type is signed. */
#ifdef __cplusplus
template <typename T> struct _sonde_sdt_signed {
	enum { value = (T)-1 < (T)1 };
};
template <typename T> struct _sonde_sdt_signed<T *> {
	enum { value = 0 };
};
#define _SONDE_SDT_SIGNED(v) (_sonde_sdt_signed<__typeof__(v)>::value)
#define _SONDE_SDT_LOCAL(v, x) auto v = (x)
#else
#define _SONDE_SDT_SIGNED(v)						\
	__extension__ _Generic((__typeof__(v))0, signed char: 1,	\
			       short: 1, int: 1, long: 1, long long: 1,	\
			       char: (char)-1 < 0, default: 0)
#define _SONDE_SDT_LOCAL(v, x) __extension__ __auto_type v = (x)
#endif
#define _SONDE_SDT_SIZE(v)						\
	(_SONDE_SDT_SIGNED(v) ? -(int)sizeof(v) : (int)sizeof(v))

/* One shared .stapsdt.base per linked file (a COMDAT group, so it
 * merges with that of sys/sdt.h): tools compare its address with the
 * base a note recorded to learn whether the file was prelinked.  The
 * note itself is not loaded ("?" keeps it in the section group of the
 * code around it, so it is dropped with a discarded inline function). */
#define _SONDE_SDT_NOTE(sem, provider, name, args)			\
	"990:\tnop\n"							\
	"\t.ifndef _.stapsdt.base\n"					\
	"\t.pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
	"\t.weak _.stapsdt.base\n"					\
	"\t.hidden _.stapsdt.base\n"					\
	"_.stapsdt.base:\n"						\
	"\t.space 1\n"							\
	"\t.size _.stapsdt.base, 1\n"					\
	"\t.popsection\n"						\
	"\t.endif\n"							\
	"\t.pushsection .note.stapsdt,\"?\",\"note\"\n"			\
	"\t.balign 4\n"							\
	"\t.4byte 992f-991f, 994f-993f, 3\n"				\
	"991:\t.asciz \"stapsdt\"\n"					\
	"992:\t.balign 4\n"						\
	"993:\t.8byte 990b, _.stapsdt.base, " sem "\n"			\
	"\t.asciz \"" provider "\", \"" name "\", \"" args "\"\n"	\
	"994:\t.balign 4\n"						\
	"\t.popsection\n"

/* Operand I: "%c" prints the size constant bare, "%" the value as the
 * assembler writes it: a register, $constant or memory. */
#define _SONDE_SDT_A(i) "%c[_sonde_s" #i "]@%[_sonde_a" #i "]"
#define _SONDE_SDT_F1 _SONDE_SDT_A(1)
#define _SONDE_SDT_F2 _SONDE_SDT_F1 " " _SONDE_SDT_A(2)
#define _SONDE_SDT_F3 _SONDE_SDT_F2 " " _SONDE_SDT_A(3)
#define _SONDE_SDT_F4 _SONDE_SDT_F3 " " _SONDE_SDT_A(4)
#define _SONDE_SDT_F5 _SONDE_SDT_F4 " " _SONDE_SDT_A(5)
#define _SONDE_SDT_F6 _SONDE_SDT_F5 " " _SONDE_SDT_A(6)
#define _SONDE_SDT_F7 _SONDE_SDT_F6 " " _SONDE_SDT_A(7)
#define _SONDE_SDT_F8 _SONDE_SDT_F7 " " _SONDE_SDT_A(8)
#define _SONDE_SDT_F9 _SONDE_SDT_F8 " " _SONDE_SDT_A(9)
#define _SONDE_SDT_F10 _SONDE_SDT_F9 " " _SONDE_SDT_A(10)
#define _SONDE_SDT_F11 _SONDE_SDT_F10 " " _SONDE_SDT_A(11)
#define _SONDE_SDT_F12 _SONDE_SDT_F11 " " _SONDE_SDT_A(12)

#define _SONDE_SDT_O(i, x)						\
	[_sonde_s##i] "n" (_SONDE_SDT_SIZE(x)), [_sonde_a##i] "nor" (x)
#define _SONDE_SDT_O1 _SONDE_SDT_O(1, _sonde_a1)
#define _SONDE_SDT_O2 _SONDE_SDT_O1, _SONDE_SDT_O(2, _sonde_a2)
#define _SONDE_SDT_O3 _SONDE_SDT_O2, _SONDE_SDT_O(3, _sonde_a3)
#define _SONDE_SDT_O4 _SONDE_SDT_O3, _SONDE_SDT_O(4, _sonde_a4)
#define _SONDE_SDT_O5 _SONDE_SDT_O4, _SONDE_SDT_O(5, _sonde_a5)
#define _SONDE_SDT_O6 _SONDE_SDT_O5, _SONDE_SDT_O(6, _sonde_a6)
#define _SONDE_SDT_O7 _SONDE_SDT_O6, _SONDE_SDT_O(7, _sonde_a7)
#define _SONDE_SDT_O8 _SONDE_SDT_O7, _SONDE_SDT_O(8, _sonde_a8)
#define _SONDE_SDT_O9 _SONDE_SDT_O8, _SONDE_SDT_O(9, _sonde_a9)
#define _SONDE_SDT_O10 _SONDE_SDT_O9, _SONDE_SDT_O(10, _sonde_a10)
#define _SONDE_SDT_O11 _SONDE_SDT_O10, _SONDE_SDT_O(11, _sonde_a11)
#define _SONDE_SDT_O12 _SONDE_SDT_O11, _SONDE_SDT_O(12, _sonde_a12)

#define _SONDE_SDT_L(i, x) _SONDE_SDT_LOCAL(_sonde_a##i, x)

/* A probe reads its arguments, not the memory they point to: data that
 * only a probe looks at (a buffer filled for it alone) may be optimised
 * away.  SONDE_SDT_MEMORY makes every probe a compiler barrier, so
 * that memory is written first, at some cost to the code around. */
#ifdef SONDE_SDT_MEMORY
#define _SONDE_SDT_CLOBBER "memory"
#else
#define _SONDE_SDT_CLOBBER
#endif

/* The probes by argument count.  PROVIDER and NAME are strings here,
 * SEM the semaphore's symbol as a string, or "0". */
#define _SONDE_SDT_0(sem, p, n)						\
	__asm__ __volatile__(_SONDE_SDT_NOTE(sem, p, n, "") ::: _SONDE_SDT_CLOBBER)
#define _SONDE_SDT_N(k, sem, p, n)					\
	__asm__ __volatile__(_SONDE_SDT_NOTE(sem, p, n, _SONDE_SDT_F##k)	\
			     :: _SONDE_SDT_O##k : _SONDE_SDT_CLOBBER)
#define _SONDE_SDT_1(s, p, n, a1) do {					\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_N(1, s, p, n); } while (0)
#define _SONDE_SDT_2(s, p, n, a1, a2) do {				\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2);			\
	_SONDE_SDT_N(2, s, p, n); } while (0)
#define _SONDE_SDT_3(s, p, n, a1, a2, a3) do {				\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_N(3, s, p, n); } while (0)
#define _SONDE_SDT_4(s, p, n, a1, a2, a3, a4) do {			\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_N(4, s, p, n); } while (0)
#define _SONDE_SDT_5(s, p, n, a1, a2, a3, a4, a5) do {			\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_L(5, a5);			\
	_SONDE_SDT_N(5, s, p, n); } while (0)
#define _SONDE_SDT_6(s, p, n, a1, a2, a3, a4, a5, a6) do {		\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_L(5, a5); _SONDE_SDT_L(6, a6);	\
	_SONDE_SDT_N(6, s, p, n); } while (0)
#define _SONDE_SDT_7(s, p, n, a1, a2, a3, a4, a5, a6, a7) do {		\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_L(5, a5); _SONDE_SDT_L(6, a6);	\
	_SONDE_SDT_L(7, a7); _SONDE_SDT_N(7, s, p, n); } while (0)
#define _SONDE_SDT_8(s, p, n, a1, a2, a3, a4, a5, a6, a7, a8) do {	\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_L(5, a5); _SONDE_SDT_L(6, a6);	\
	_SONDE_SDT_L(7, a7); _SONDE_SDT_L(8, a8);			\
	_SONDE_SDT_N(8, s, p, n); } while (0)
#define _SONDE_SDT_9(s, p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9) do {	\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_L(5, a5); _SONDE_SDT_L(6, a6);	\
	_SONDE_SDT_L(7, a7); _SONDE_SDT_L(8, a8); _SONDE_SDT_L(9, a9);	\
	_SONDE_SDT_N(9, s, p, n); } while (0)
#define _SONDE_SDT_10(s, p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	do {								\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_L(5, a5); _SONDE_SDT_L(6, a6);	\
	_SONDE_SDT_L(7, a7); _SONDE_SDT_L(8, a8); _SONDE_SDT_L(9, a9);	\
	_SONDE_SDT_L(10, a10); _SONDE_SDT_N(10, s, p, n); } while (0)
#define _SONDE_SDT_11(s, p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, \
		      a11) do {						\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_L(5, a5); _SONDE_SDT_L(6, a6);	\
	_SONDE_SDT_L(7, a7); _SONDE_SDT_L(8, a8); _SONDE_SDT_L(9, a9);	\
	_SONDE_SDT_L(10, a10); _SONDE_SDT_L(11, a11);			\
	_SONDE_SDT_N(11, s, p, n); } while (0)
#define _SONDE_SDT_12(s, p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, \
		      a11, a12) do {					\
	_SONDE_SDT_L(1, a1); _SONDE_SDT_L(2, a2); _SONDE_SDT_L(3, a3);	\
	_SONDE_SDT_L(4, a4); _SONDE_SDT_L(5, a5); _SONDE_SDT_L(6, a6);	\
	_SONDE_SDT_L(7, a7); _SONDE_SDT_L(8, a8); _SONDE_SDT_L(9, a9);	\
	_SONDE_SDT_L(10, a10); _SONDE_SDT_L(11, a11);			\
	_SONDE_SDT_L(12, a12); _SONDE_SDT_N(12, s, p, n); } while (0)

/* SONDE_PROBE(provider, name, args...): the count of the arguments
 * after provider and name picks the implementation.  Counting all the
 * macro's arguments (2 to 14) means no "..." is ever left empty, which
 * ISO C does not allow. */
#define _SONDE_SDT_NTH(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, \
		       _13, _14, n, ...) n
#define _SONDE_SDT_COUNT(...)						\
	_SONDE_SDT_NTH(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, \
		       0, x, x)
#define _SONDE_SDT_SOME(...)						\
	_SONDE_SDT_NTH(__VA_ARGS__, N, N, N, N, N, N, N, N, N, N, N, N, \
		       0, x, x)
#define _SONDE_SDT_CAT(a, b) _SONDE_SDT_CAT2(a, b)
#define _SONDE_SDT_CAT2(a, b) a##b
#define _SONDE_SDT_P0(sem, p, n) _SONDE_SDT_0(sem, #p, #n)
#define _SONDE_SDT_PN(sem, p, n, ...)					\
	_SONDE_SDT_CAT(_SONDE_SDT_, _SONDE_SDT_COUNT(p, n, __VA_ARGS__)) \
	(sem, #p, #n, __VA_ARGS__)
#define _SONDE_SDT_FIRST(a, ...) a
#define _SONDE_SDT_STR(x) #x
#define _SONDE_SDT_SEMSTR(p, n) _SONDE_SDT_SEMSTR2(p, n)
#define _SONDE_SDT_SEMSTR2(p, n) _SONDE_SDT_STR(p##_##n##_semaphore)

#define SONDE_PROBE(...)						\
	_SONDE_SDT_CAT(_SONDE_SDT_P, _SONDE_SDT_SOME(__VA_ARGS__))	\
	("0", __VA_ARGS__)
#define SONDE_PROBE_SEM(provider, ...)					\
	_SONDE_SDT_CAT(_SONDE_SDT_P, _SONDE_SDT_SOME(provider, __VA_ARGS__)) \
	(_SONDE_SDT_SEMSTR(provider, _SONDE_SDT_FIRST(__VA_ARGS__, x)),	\
	 provider, __VA_ARGS__)

#else	/* not x86_64 GCC or Clang, or SONDE_SDT_DISABLE: no probes */

#define SONDE_SEMAPHORE(provider, name)					\
	__extension__ unsigned short _SONDE_SDT_SEM(provider, name)
#define SONDE_SEMAPHORE_EXTERN(provider, name)				\
	extern unsigned short _SONDE_SDT_SEM(provider, name)
#define SONDE_ENABLED(provider, name) 0
#define SONDE_PROBE(...) do { } while (0)
#define SONDE_PROBE_SEM(...) do { } while (0)
/* what sonde dtrace -h headers call */
#define _SONDE_SDT_0(...) do { } while (0)
#define _SONDE_SDT_1(...) do { } while (0)
#define _SONDE_SDT_2(...) do { } while (0)
#define _SONDE_SDT_3(...) do { } while (0)
#define _SONDE_SDT_4(...) do { } while (0)
#define _SONDE_SDT_5(...) do { } while (0)
#define _SONDE_SDT_6(...) do { } while (0)
#define _SONDE_SDT_7(...) do { } while (0)
#define _SONDE_SDT_8(...) do { } while (0)
#define _SONDE_SDT_9(...) do { } while (0)
#define _SONDE_SDT_10(...) do { } while (0)
#define _SONDE_SDT_11(...) do { } while (0)
#define _SONDE_SDT_12(...) do { } while (0)

#endif
#endif
