#ifndef RECEIPTS_CLEPTONICA_SHIM_H
#define RECEIPTS_CLEPTONICA_SHIM_H
// Leptonica, for the one Swift layer that calls it (ReceiptIngest/Leptonica.swift).
//
// Leptonica's PIX and BOXA are re-typed as `void *` here: PIX imports into Swift as
// UnsafeMutablePointer<Pix> on 1.82 and as OpaquePointer from 1.83 (its fields became
// private), so Swift code only ever sees these rc_* functions. Each is one call, no logic.
#include <leptonica/allheaders.h>

typedef void rc_pix;
typedef void rc_boxa;

// Decoding and encoding.
static inline rc_pix *rc_pixReadMem(const unsigned char *data, size_t size) { return pixReadMem(data, size); }
// A JPEG decoded by libjpeg at 1/reduction of its size (1, 2, 4 or 8: libjpeg's scaled DCT), and,
// with `luminance`, to its grey (Y) channel only, before any colour conversion: a quarter of the
// memory of the 32 bpp colour image pixReadMem makes, and a quarter again for each halving.
static inline rc_pix *rc_pixReadMemJpegScaled(const unsigned char *data, size_t size, int reduction, int luminance) {
    l_int32 warnings = 0;
    return pixReadMemJpeg(data, size, 0, reduction, &warnings, luminance ? L_JPEG_READ_LUMINANCE : 0);
}
static inline int rc_pixReadHeaderMem(const unsigned char *data, size_t size, int *format, int *w, int *h, int *bps, int *spp) {
    l_int32 f = 0, ww = 0, hh = 0, b = 0, s = 0, cm = 0;
    int rc = pixReadHeaderMem(data, size, &f, &ww, &hh, &b, &s, &cm);
    *format = f; *w = ww; *h = hh; *bps = b; *spp = s;
    return rc;
}
static inline int rc_findFormat(const unsigned char *data, int *format) { l_int32 f = 0; int rc = findFileFormatBuffer(data, &f); *format = f; return rc; }
// Multi-page TIFF: page n's header (0 on success), and the page at *offset (0 for the first),
// with *offset set to the next page's (0 after the last).
static inline int rc_readHeaderMemTiff(const unsigned char *data, size_t size, int n, int *w, int *h) {
    l_int32 ww = 0, hh = 0, bps = 0, spp = 0, res = 0, cmap = 0, fmt = 0;
    int rc = readHeaderMemTiff(data, size, n, &ww, &hh, &bps, &spp, &res, &cmap, &fmt);
    *w = ww; *h = hh; return rc;
}
static inline rc_pix *rc_pixReadMemFromMultipageTiff(const unsigned char *data, size_t size, size_t *offset) {
    return pixReadMemFromMultipageTiff(data, size, offset);
}
// Encodes to PNG (format IFF_PNG); caller frees *data with rc_free.
static inline int rc_pixWritePng(unsigned char **data, size_t *size, rc_pix *p) { return pixWriteMem(data, size, (PIX *)p, IFF_PNG); }
static inline void rc_free(void *p) { lept_free(p); }

// One image: create, free, read its fields and raster.
static inline rc_pix *rc_pixCreate(int w, int h, int depth) { return pixCreate(w, h, depth); }
static inline void rc_pixDestroy(rc_pix *p) { PIX *q = (PIX *)p; pixDestroy(&q); }
static inline int rc_pixWidth(const rc_pix *p) { return pixGetWidth((const PIX *)p); }
static inline int rc_pixHeight(const rc_pix *p) { return pixGetHeight((const PIX *)p); }
static inline int rc_pixDepth(const rc_pix *p) { return pixGetDepth((const PIX *)p); }
static inline int rc_pixWpl(const rc_pix *p) { return pixGetWpl((const PIX *)p); }
static inline int rc_pixHasColormap(rc_pix *p) { return pixGetColormap((PIX *)p) != NULL; }
static inline int rc_pixXRes(const rc_pix *p) { return pixGetXRes((const PIX *)p); }
static inline int rc_pixYRes(const rc_pix *p) { return pixGetYRes((const PIX *)p); }
static inline void rc_pixSetResolution(rc_pix *p, int xres, int yres) { pixSetResolution((PIX *)p, xres, yres); }
// The raster: wpl 32-bit words per row, pixels packed from the most significant byte of each word.
static inline unsigned int *rc_pixData(rc_pix *p) { return pixGetData((PIX *)p); }

// Conversions and normalisation.
static inline rc_pix *rc_pixConvertTo8(rc_pix *p) { return pixConvertTo8((PIX *)p, 0); }
static inline rc_pix *rc_pixRemoveColormapToGray(rc_pix *p) { return pixRemoveColormap((PIX *)p, REMOVE_CMAP_TO_GRAYSCALE); }
static inline rc_pix *rc_pixRemoveColormapBySource(rc_pix *p) { return pixRemoveColormap((PIX *)p, REMOVE_CMAP_BASED_ON_SRC); }
static inline rc_pix *rc_pixLuminance(rc_pix *p) { return pixConvertRGBToLuminance((PIX *)p); }
static inline rc_pix *rc_pixRotateOrth(rc_pix *p, int quads) { return pixRotateOrth((PIX *)p, quads); }
static inline rc_pix *rc_pixFlipLR(rc_pix *p) { return pixFlipLR(NULL, (PIX *)p); }
static inline rc_pix *rc_pixFlipTB(rc_pix *p) { return pixFlipTB(NULL, (PIX *)p); }
static inline rc_pix *rc_pixScale(rc_pix *p, float sx, float sy) { return pixScale((PIX *)p, sx, sy); }
static inline rc_pix *rc_pixFindSkewAndDeskew(rc_pix *p, int redsearch, float *angle, float *conf) {
    l_float32 a = 0, c = 0; PIX *r = pixFindSkewAndDeskew((PIX *)p, redsearch, &a, &c); *angle = a; *conf = c; return r;
}
static inline rc_pix *rc_pixContrastNorm(rc_pix *p, int sx, int sy, int mindiff, int smooth) { return pixContrastNorm(NULL, (PIX *)p, sx, sy, mindiff, smooth, smooth); }
static inline rc_pix *rc_pixClip(rc_pix *p, int x, int y, int w, int h) {
    BOX *b = boxCreate(x, y, w, h); PIX *r = b ? pixClipRectangle((PIX *)p, b, NULL) : NULL; boxDestroy(&b); return r;
}

// What finding the paper in a photo needs (ReceiptIngest/PaperFinder.swift).
static inline rc_pix *rc_pixScaleAreaMap(rc_pix *p, float sx, float sy) { return pixScaleAreaMap((PIX *)p, sx, sy); }
static inline rc_pix *rc_pixScaleAreaMap2(rc_pix *p) { return pixScaleAreaMap2((PIX *)p); }
// The threshold between foreground and background (Leptonica's Otsu variant); 0 on success.
static inline int rc_pixSplitDistributionFgBg(rc_pix *p, float scorefract, int factor, int *thresh) {
    l_int32 t = 0; int rc = pixSplitDistributionFgBg((PIX *)p, scorefract, factor, &t, NULL, NULL, NULL); *thresh = t; return rc;
}
static inline rc_pix *rc_pixThresholdToBinary(rc_pix *p, int thresh) { return pixThresholdToBinary((PIX *)p, thresh); }
static inline void rc_pixInvertInPlace(rc_pix *p) { pixInvert((PIX *)p, (PIX *)p); }
static inline rc_pix *rc_pixCloseBrick(rc_pix *p, int hsize, int vsize) { return pixCloseBrick(NULL, (PIX *)p, hsize, vsize); }
static inline rc_boxa *rc_pixConnCompBoxes(rc_pix *p, int connectivity) { return pixConnComp((PIX *)p, NULL, connectivity); }
static inline int rc_boxaCount(rc_boxa *b) { return boxaGetCount((BOXA *)b); }
static inline int rc_boxaGeometry(rc_boxa *b, int i, int *x, int *y, int *w, int *h) {
    l_int32 xx = 0, yy = 0, ww = 0, hh = 0; int rc = boxaGetBoxGeometry((BOXA *)b, i, &xx, &yy, &ww, &hh);
    *x = xx; *y = yy; *w = ww; *h = hh; return rc;
}
static inline void rc_boxaDestroy(rc_boxa *b) { BOXA *q = (BOXA *)b; boxaDestroy(&q); }
#endif
