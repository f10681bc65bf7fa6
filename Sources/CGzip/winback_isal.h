#ifndef WINBACK_ISAL_H
#define WINBACK_ISAL_H

// ISA-L is optional at build time (its header) and at run time (its library): the build does not link it,
// so a machine without libisal builds and runs with zlib alone. Internal to this module.
#if __has_include(<isa-l/igzip_lib.h>)
#include <isa-l/igzip_lib.h>
#define WINBACK_HAS_ISAL_HEADER 1
#else
#define WINBACK_HAS_ISAL_HEADER 0
#endif

#if WINBACK_HAS_ISAL_HEADER
/// igzip's entry points, found in libisal.so.2 (or libisal.so) by `dlopen`.
typedef struct {
    void (*inflate_init)(struct inflate_state *);
    int (*inflate)(struct inflate_state *);
    void (*deflate_init)(struct isal_zstream *);
    int (*deflate)(struct isal_zstream *);
} winback_isal_functions;

/// The functions, loaded on the first call (once per process), or NULL when the library does not load or
/// lacks one of them, or when the environment variable `variable` is `zlib` (the engine's caller asked for zlib).
const winback_isal_functions *winback_isal_unless_refused(const char *variable);
#endif

#endif
