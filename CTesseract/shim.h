#ifndef RECEIPTS_CTESSERACT_SHIM_H
#define RECEIPTS_CTESSERACT_SHIM_H
// Tesseract's C API and Leptonica, for the one Swift layer that calls them
// (ReceiptIngest/Leptonica.swift, ReceiptOCR/TesseractEngine.swift).
//
// Leptonica's PIX is re-typed as `void *` here: it imports into Swift as
// UnsafeMutablePointer<Pix> on 1.82 and as OpaquePointer from 1.83 (its fields
// became private), so Swift code only ever sees these rc_pix* functions.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>

typedef void rc_pix;

static inline rc_pix *rc_pixReadMem(const unsigned char *data, size_t size) { return pixReadMem(data, size); }
static inline int rc_pixReadHeaderMem(const unsigned char *data, size_t size, int *format, int *w, int *h, int *bps, int *spp) {
    l_int32 f = 0, ww = 0, hh = 0, b = 0, s = 0, cm = 0;
    int rc = pixReadHeaderMem(data, size, &f, &ww, &hh, &b, &s, &cm);
    *format = f; *w = ww; *h = hh; *bps = b; *spp = s;
    return rc;
}
static inline int rc_findFormat(const unsigned char *data, int *format) { l_int32 f = 0; int rc = findFileFormatBuffer(data, &f); *format = f; return rc; }
static inline void rc_pixDestroy(rc_pix *p) { PIX *q = (PIX *)p; pixDestroy(&q); }
static inline int rc_pixWidth(const rc_pix *p) { return pixGetWidth((const PIX *)p); }
static inline int rc_pixHeight(const rc_pix *p) { return pixGetHeight((const PIX *)p); }
static inline int rc_pixDepth(const rc_pix *p) { return pixGetDepth((const PIX *)p); }
static inline rc_pix *rc_pixConvertTo8(rc_pix *p) { return pixConvertTo8((PIX *)p, 0); }
static inline rc_pix *rc_pixRemoveColormapToGray(rc_pix *p) { return pixRemoveColormap((PIX *)p, REMOVE_CMAP_TO_GRAYSCALE); }
static inline rc_pix *rc_pixLuminance(rc_pix *p) { return pixConvertRGBToLuminance((PIX *)p); }
static inline rc_pix *rc_pixScale(rc_pix *p, float sx, float sy) { return pixScale((PIX *)p, sx, sy); }
static inline rc_pix *rc_pixRotateOrth(rc_pix *p, int quads) { return pixRotateOrth((PIX *)p, quads); }
static inline rc_pix *rc_pixFindSkewAndDeskew(rc_pix *p, int redsearch, float *angle, float *conf) {
    l_float32 a = 0, c = 0; PIX *r = pixFindSkewAndDeskew((PIX *)p, redsearch, &a, &c); *angle = a; *conf = c; return r;
}
static inline rc_pix *rc_pixContrastNorm(rc_pix *p, int sx, int sy, int mindiff, int smooth) { return pixContrastNorm(NULL, (PIX *)p, sx, sy, mindiff, smooth, smooth); }
// Encodes to PNG (format IFF_PNG); caller frees *data with rc_free.
static inline int rc_pixWritePng(unsigned char **data, size_t *size, rc_pix *p) { return pixWriteMem(data, size, (PIX *)p, IFF_PNG); }
static inline void rc_free(void *p) { lept_free(p); }
// FNV-1a over the raster (size, depth and every word): a cheap key for "the same pixels".
static inline unsigned long long rc_pixHash(rc_pix *p) {
    PIX *q = (PIX *)p; unsigned long long h = 1469598103934665603ULL;
    l_int32 w = pixGetWidth(q), ht = pixGetHeight(q), d = pixGetDepth(q), wpl = pixGetWpl(q);
    h = (h ^ (unsigned long long)w) * 1099511628211ULL; h = (h ^ (unsigned long long)ht) * 1099511628211ULL;
    h = (h ^ (unsigned long long)d) * 1099511628211ULL;
    const l_uint32 *data = pixGetData(q);
    for (l_int64 i = 0, n = (l_int64)wpl * ht; i < n; i++) h = (h ^ data[i]) * 1099511628211ULL;
    return h;
}
static inline void rc_quiet(void) { setMsgSeverity(L_SEVERITY_NONE); }

// Tesseract takes the image as a PIX.
static inline void rc_tessSetImage(TessBaseAPI *api, rc_pix *p) { TessBaseAPISetImage2(api, (struct Pix *)p); }
#endif
