/* demangle.h - symbol names demangled (demangle.c). */
#ifndef SONDE_DEMANGLE_H
#define SONDE_DEMANGLE_H

/* NAME demangled, malloc'd, or NULL when it is not a C++ (Itanium ABI:
 * _Z...) or Rust name (legacy _ZN...17h<hash>E, printed without the
 * hash as c++filt prints it; v0 _R...) that can be demangled. */
char *sym_demangle(const char *name);

#endif
