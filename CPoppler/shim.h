#ifndef RECEIPTS_CPOPPLER_SHIM_H
#define RECEIPTS_CPOPPLER_SHIM_H
// Poppler through its GLib C API (poppler-glib) and cairo, for the one Swift file that calls
// them (ReceiptIngest/PDFDecoder.swift). Poppler is GPL-2.0-or-later: see the README.
#include <poppler.h>
#include <cairo.h>

// GLib's error domain for Poppler errors is a function-like macro Swift cannot call.
static inline unsigned int rc_poppler_error_quark(void) { return POPPLER_ERROR; }
#endif
