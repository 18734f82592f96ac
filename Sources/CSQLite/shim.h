#ifndef RECEIPTS_CSQLITE_SHIM_H
#define RECEIPTS_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
