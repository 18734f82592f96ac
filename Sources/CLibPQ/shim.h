#ifndef RECEIPTS_CLIBPQ_SHIM_H
#define RECEIPTS_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
