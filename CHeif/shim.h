#ifndef RECEIPTS_CHEIF_SHIM_H
#define RECEIPTS_CHEIF_SHIM_H
// libheif (HEIC/HEIF, and AVIF where libheif has an AV1 decoder), for the one Swift file
// that calls it (ReceiptIngest/HEIFDecoder.swift). Its C API imports into Swift as is.
#include <libheif/heif.h>
#endif
