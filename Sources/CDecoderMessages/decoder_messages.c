#define _GNU_SOURCE
#include "decoder_messages.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <png.h>
#include <jpeglib.h>
#include <leptonica/allheaders.h>

enum { CAPACITY = 1024 };
static _Thread_local char buffer[CAPACITY];
static _Thread_local size_t used;
static _Thread_local int count;

// Appends one message (trailing newlines dropped); the first messages are kept when it overflows.
static void append(const char *text) {
    if (!text) return;
    count++;
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r')) n--;
    if (n == 0 || used + 2 >= CAPACITY) return;
    if (used > 0) buffer[used++] = '\n';
    if (n > CAPACITY - 1 - used) n = CAPACITY - 1 - used;
    memcpy(buffer + used, text, n);
    used += n;
    buffer[used] = 0;
}

void rc_messages_clear(void) { used = 0; count = 0; buffer[0] = 0; }
const char *rc_messages_text(void) { return buffer; }
int rc_messages_count(void) { return count; }

static void lept_handler(const char *msg) { append(msg); }
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void install(void) {
    leptSetStderrHandler(lept_handler);
    setMsgSeverity(L_SEVERITY_ERROR);
}
void rc_messages_install(void) { pthread_once(&once, install); }

// libpng: a warning is noted; an error is noted and ends the decode through libpng's own
// longjmp (Leptonica set the jump buffer), exactly what the default handler does after printing.
static void png_warning_handler(png_structp png, png_const_charp msg) { (void)png; char b[300]; snprintf(b, sizeof b, "libpng: %s", msg); append(b); }
static void png_error_handler(png_structp png, png_const_charp msg) { png_warning_handler(png, msg); png_longjmp(png, 1); }

typedef png_structp (*png_create_fn)(png_const_charp, png_voidp, png_error_ptr, png_error_ptr);

// The real library function `name`, looked up once per call site (the next definition after ours).
static void *real_function(void **slot, const char *name) {
    void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!f) { f = dlsym(RTLD_NEXT, name); __atomic_store_n(slot, f, __ATOMIC_RELEASE); }
    return f;
}

png_structp png_create_read_struct(png_const_charp ver, png_voidp error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn) {
    static void *slot;
    png_create_fn real = (png_create_fn)real_function(&slot, "png_create_read_struct");
    if (!real) return NULL;
    return real(ver, error_ptr, error_fn ? error_fn : png_error_handler, warn_fn ? warn_fn : png_warning_handler);
}

png_structp png_create_write_struct(png_const_charp ver, png_voidp error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn) {
    static void *slot;
    png_create_fn real = (png_create_fn)real_function(&slot, "png_create_write_struct");
    if (!real) return NULL;
    return real(ver, error_ptr, error_fn ? error_fn : png_error_handler, warn_fn ? warn_fn : png_warning_handler);
}

// libjpeg: every message (warnings, and the error before Leptonica's longjmp) goes through output_message.
static void jpeg_output_handler(j_common_ptr cinfo) {
    char text[JMSG_LENGTH_MAX], b[JMSG_LENGTH_MAX + 16];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(b, sizeof b, "libjpeg: %s", text);
    append(b);
}

typedef struct jpeg_error_mgr *(*jpeg_std_error_fn)(struct jpeg_error_mgr *);

struct jpeg_error_mgr *jpeg_std_error(struct jpeg_error_mgr *err) {
    static void *slot;
    jpeg_std_error_fn real = (jpeg_std_error_fn)real_function(&slot, "jpeg_std_error");
    if (!real) return err;
    struct jpeg_error_mgr *e = real(err);
    e->output_message = jpeg_output_handler;
    return e;
}
