#ifndef RECEIPTS_DECODER_MESSAGES_H
#define RECEIPTS_DECODER_MESSAGES_H
#include <stddef.h>
// What the image libraries say while a file is decoded, kept per thread instead of
// printed on stderr: the tool prints its own `error:` line and uses these words as its detail.
//
// Leptonica has a handler hook (leptSetStderrHandler). libpng and libjpeg have per-decoder
// hooks that Leptonica 1.82 leaves at their defaults (fprintf to stderr), so this file also
// defines png_create_read_struct / png_create_write_struct / jpeg_std_error: the dynamic
// linker resolves Leptonica's calls to these, which call the real functions (dlsym RTLD_NEXT)
// and put our handlers in place. No other code in the package is C, but the one fallback below.

// Routes Leptonica's messages into the per-thread buffer. Idempotent.
void rc_messages_install(void);
// Empties this thread's buffer (call before decoding).
void rc_messages_clear(void);
// This thread's messages since the last clear, one per line ("" when none). Valid until the next call on this thread.
const char *rc_messages_text(void);
// How many messages were routed away from stderr by this thread since the last clear.
int rc_messages_count(void);

// A JPEG Leptonica gave up on (it stops at the first scanline libjpeg's file reader returns
// nothing for, after a damaged entropy-coded segment), read by libjpeg from memory instead, to
// grey at 1/reduction (1, 2, 4, 8), as viewers read it. The rows up to libjpeg's first warning
// or error are kept, the rest given the paper's grey (the median of the last rows read).
// Returns a Leptonica PIX (8 bpp), or NULL when the rows kept are under half the page or the
// file has no grey reading (CMYK). *rows_read of *rows were kept. Messages go to the buffer above.
void *rc_jpeg_read_memory_gray(const unsigned char *data, size_t size, int reduction, int *rows_read, int *rows);
#endif
