#ifndef UAAUDIT_CZLIB_SHIM_H
#define UAAUDIT_CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a macro; this wraps it with the right version and size. */
static inline int uaaudit_inflate_init_gzip(z_stream *strm) {
    return inflateInit2(strm, 15 + 32);
}
#endif
