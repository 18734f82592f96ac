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
// The paper in a photo: on an 8 bpp image shrunk to ~400 px, split bright from dark (Otsu-like),
// close the text into the paper, and take the largest bright component. Returns 1 and its box in
// full-size pixels when it covers 15-90 % of the image and is clearly brighter than the rest.
static inline int rc_paperBox(rc_pix *p, int *bx, int *by, int *bw, int *bh) {
    PIX *g = (PIX *)p; int w = pixGetWidth(g), h = pixGetHeight(g), found = 0;
    if (pixGetDepth(g) != 8 || w < 50 || h < 50) return 0;
    float s = 400.0f / (float)(w > h ? w : h); if (s > 1) s = 1;
    PIX *sm = pixScaleAreaMap(g, s, s); if (!sm) return 0;
    l_int32 thresh = 0, sw = pixGetWidth(sm), sh = pixGetHeight(sm);
    BOXA *boxa = NULL; PIX *bin = NULL, *closed = NULL;
    if (pixSplitDistributionFgBg(sm, 0.0, 1, &thresh, NULL, NULL, NULL) == 0 && (bin = pixThresholdToBinary(sm, thresh))) {
        pixInvert(bin, bin);                           // paper (bright) = 1
        closed = pixCloseBrick(NULL, bin, 9, 9);       // text and lines inside the paper join it
        if (closed && (boxa = pixConnComp(closed, NULL, 8))) {
            l_int32 best = -1, area = 0, x, y, cw, ch;
            for (l_int32 i = 0; i < boxaGetCount(boxa); i++)
                if (boxaGetBoxGeometry(boxa, i, &x, &y, &cw, &ch) == 0 && cw * ch > area) { area = cw * ch; best = i; }
            if (best >= 0 && boxaGetBoxGeometry(boxa, best, &x, &y, &cw, &ch) == 0) {
                double frac = (double)area / ((double)sw * sh);
                // Mean grey inside the box and outside it.
                double in = 0, out = 0; long nin = 0, nout = 0; l_uint32 v;
                for (l_int32 yy = 0; yy < sh; yy += 2) for (l_int32 xx = 0; xx < sw; xx += 2) {
                    pixGetPixel(sm, xx, yy, &v);
                    if (xx >= x && xx < x + cw && yy >= y && yy < y + ch) { in += v; nin++; } else { out += v; nout++; }
                }
                if (frac >= 0.15 && frac <= 0.90 && nin > 0 && nout > 0 && in / nin - out / nout >= 40) {
                    int m = 4;                                       // a small margin, in small-image pixels
                    x = x > m ? x - m : 0; y = y > m ? y - m : 0; cw += 2 * m; ch += 2 * m;
                    *bx = (int)(x / s); *by = (int)(y / s);
                    *bw = (int)(cw / s); *bh = (int)(ch / s);
                    if (*bx + *bw > w) *bw = w - *bx;
                    if (*by + *bh > h) *bh = h - *by;
                    found = 1;
                }
            }
        }
    }
    boxaDestroy(&boxa); pixDestroy(&closed); pixDestroy(&bin); pixDestroy(&sm);
    return found;
}
static inline rc_pix *rc_pixClip(rc_pix *p, int x, int y, int w, int h) {
    BOX *b = boxCreate(x, y, w, h); PIX *r = b ? pixClipRectangle((PIX *)p, b, NULL) : NULL; boxDestroy(&b); return r;
}
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
