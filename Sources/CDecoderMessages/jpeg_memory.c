#include "decoder_messages.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <leptonica/allheaders.h>

// A JPEG that Leptonica gave up on, read by libjpeg straight from memory (see decoder_messages.h).

struct rc_jpeg_error { struct jpeg_error_mgr pub; jmp_buf jump; };

static void rc_jpeg_error_exit(j_common_ptr cinfo) {
    (*cinfo->err->output_message)(cinfo);  // into this thread's messages (jpeg_std_error put our handler there)
    longjmp(((struct rc_jpeg_error *)cinfo->err)->jump, 1);
}

// The rows from `done` on take the median grey of the last rows read: the paper's, mostly. White
// would be a second paper to Tesseract's global threshold, which then blackens a grey photo's own.
static void fill_after(PIX *pix, int done) {
    int w = pixGetWidth(pix), h = pixGetHeight(pix), wpl = pixGetWpl(pix);
    if (done >= h || done == 0) return;
    l_uint32 *words = pixGetData(pix);
    unsigned long histogram[256] = {0}, n = 0;
    for (int y = done > 16 ? done - 16 : 0; y < done; y++) {
        l_uint32 *line = words + (size_t)y * wpl;
        for (int x = 0; x < w; x++) { histogram[GET_DATA_BYTE(line, x)]++; n++; }
    }
    int grey = 0;
    for (unsigned long seen = 0; grey < 255 && (seen += histogram[grey]) * 2 < n; grey++) {}
    for (int y = done; y < h; y++) {
        l_uint32 *line = words + (size_t)y * wpl;
        for (int x = 0; x < w; x++) SET_DATA_BYTE(line, x, grey);
    }
}

void *rc_jpeg_read_memory_gray(const unsigned char *data, size_t size, int reduction, int *rows_read, int *rows) {
    struct jpeg_decompress_struct cinfo;
    struct rc_jpeg_error jerr;
    PIX *volatile pix = NULL;
    JSAMPROW volatile row = NULL;
    volatile int done = 0;
    *rows_read = 0; *rows = 0;
    cinfo.err = jpeg_std_error(&jerr.pub);
    jerr.pub.error_exit = rc_jpeg_error_exit;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(row);
        *rows_read = done;
        if (pix && 2 * done < *rows) pixDestroy((PIX **)&pix);
        if (pix) fill_after(pix, done);
        return pix;  // the rows read before the error, the rest the paper's grey; under half the page: no page
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)reduction;
    cinfo.out_color_space = JCS_GRAYSCALE;  // libjpeg refuses this for CMYK: an error, so nothing
    jpeg_start_decompress(&cinfo);
    int w = (int)cinfo.output_width, h = (int)cinfo.output_height;
    *rows = h;
    pix = pixCreate(w, h, 8);
    row = malloc((size_t)w);
    if (!pix || !row || cinfo.output_components != 1) {
        jpeg_destroy_decompress(&cinfo);
        free(row);
        if (pix) pixDestroy((PIX **)&pix);
        return NULL;
    }
    if (cinfo.density_unit == 1) pixSetResolution(pix, cinfo.X_density, cinfo.Y_density);
    else if (cinfo.density_unit == 2) pixSetResolution(pix, (int)(cinfo.X_density * 2.54 + 0.5), (int)(cinfo.Y_density * 2.54 + 0.5));
    l_uint32 *words = pixGetData(pix);
    int wpl = pixGetWpl(pix);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW r = row;
        int y = (int)cinfo.output_scanline;
        if (jpeg_read_scanlines(&cinfo, &r, 1) != 1) break;  // a memory source never suspends: the data ended
        // A warning (a bad code, the data ending early: libjpeg fills in from there) ends the trusted rows.
        if (jerr.pub.num_warnings > 0) break;
        l_uint32 *line = words + (size_t)y * wpl;
        for (int x = 0; x < w; x++) SET_DATA_BYTE(line, x, row[x]);
        done = y + 1;
    }
    *rows_read = done;
    jpeg_destroy_decompress(&cinfo);
    free(row);
    if (2 * done < h) { pixDestroy((PIX **)&pix); return NULL; }  // under half the page: no page
    fill_after(pix, done);
    return pix;
}
