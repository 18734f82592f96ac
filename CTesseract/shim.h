#ifndef RECEIPTS_CTESSERACT_SHIM_H
#define RECEIPTS_CTESSERACT_SHIM_H
// Tesseract's C API, for the one Swift layer that calls it (ReceiptOCR/TesseractEngine.swift).
// Images go in as plain bytes (TessBaseAPISetImage), not as Leptonica PIX.
#include <tesseract/capi.h>

// The one Leptonica function this module calls, declared here rather than by including
// Leptonica's headers. Tesseract's C API takes no resolution for raw bytes, but orientation
// detection reads it from its own copy of the image (osdetect.cpp, remove_nontext_regions:
// pixGetXRes of the binarised page, copied from the input), so the declared resolution is
// set on the copy TessBaseAPIGetInputImage returns. Without it OSD assumes 70 dpi and its
// confidence changes on scans that declare one (19 of 77 such dev-set scans).
int pixSetResolution(struct Pix *pix, int xres, int yres);
#endif
