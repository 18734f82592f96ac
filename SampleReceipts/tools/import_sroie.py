#!/usr/bin/env python3
"""Copy a fixed selection of SROIE scans into SampleReceipts/ with sidecars.

Source: ICDAR 2019 SROIE (Scanned Receipts OCR and Information Extraction),
Huang et al., training split, CC-BY-4.0. See SampleReceipts/README.md.

    python3 SampleReceipts/tools/import_sroie.py [SROIE_DIR]

SROIE_DIR defaults to $SROIE_DIR or /work/shared/data/sroie-dev and must hold
img/<id>.jpg and key/<id>.json ({"company", "date", "address", "total"}).
Writes SampleReceipts/sroie-<id>.jpg (byte-for-byte copy) and
SampleReceipts/sroie-<id>.json in our sidecar format. Standard library only.
"""

import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.dirname(HERE)
DEFAULT_SRC = os.environ.get("SROIE_DIR", "/work/shared/data/sroie-dev")

# id -> why it was picked (date layout / total layout / shop kind)
IDS = {
    "X00016469612": "date DD/MM/YYYY; small scan; bookshop",
    "X00016469620": "date DD-MM-YY (12-01-19, day <= 12); hardware chain",
    "X00016469672": "date DD/MM/YYYY; machinery shop, 327.00",
    "X00016469676": "date DD-MM-YYYY; motor workshop",
    "X51005306399": "date DD/MM/YY; petrol station; tiny 59 KB scan",
    "X51005365179": "date DD-MM-YY (01-03-18, ambiguous); hardware",
    "X51005441407": "date D/M/YYYY without zero padding (5/3/2018)",
    "X51005442361": "ISO date YYYY-MM-DD; restaurant, 593.10",
    "X51005444037": "date DD MON YY (28 MAR 18); restaurant chain",
    "X51005447833": "date DD/MM/YY; restaurant",
    "X51005447850": "receipt prints 04/03/2018 15:41:52, key has compact YYYYMMDD",
    "X51005715010": "compact date DDMMYYYY (25032018); total 'RM41.45'",
    "X51005719814": "date DD/M/YYYY (17/1/2018); total 'RM 29.70' with space",
    "X51005719874": "date YYYY/MM/DD; total 'RM39.00'",
    "X51005719904": "ISO date YYYY-MM-DD; total 'RM29.30'",
    "X51005719906": "date DD MON YYYY (25 MAR 2018)",
    "X51006392299": "date DD/MON/YYYY (14/JUN/2017)",
    "X51006556730": "date DD-MON-YYYY (05-AUG-2017); total 'RM40.00'",
    "X51006733494": "month-name date MON D, YYYY (OCT 3, 2016); total 'RM33.90'",
    "X51008099049": "date DD MON YY (15 JUN 18); long receipt",
}

MONTHS = {m: i for i, m in enumerate(
    "JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split(), start=1)}


def _year(y):
    y = int(y)
    return y + 2000 if y < 100 else y


def iso_date(s):
    """SROIE printed date (day-first unless year-first) -> YYYY-MM-DD."""
    t = s.strip().strip("()").strip().upper()
    m = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", t)  # 2018-03-23, 2018/02/22
    if m:
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
    elif re.fullmatch(r"20\d{6}", t) and 1 <= int(t[4:6]) <= 12:  # 20180304
        y, mo, d = int(t[:4]), int(t[4:6]), int(t[6:])
    elif re.fullmatch(r"\d{8}", t):  # 25032018
        y, mo, d = int(t[4:]), int(t[2:4]), int(t[:2])
    elif m := re.fullmatch(r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})", t):  # 25/12/2018, 12-01-19
        d, mo, y = int(m[1]), int(m[2]), _year(m[3])
    elif m := re.fullmatch(r"(\d{1,2})[-/ ]([A-Z]{3})[A-Z]*[-/ ](\d{2}|\d{4})", t):  # 05 MAR 2018
        d, mo, y = int(m[1]), MONTHS[m[2]], _year(m[3])
    elif m := re.fullmatch(r"([A-Z]{3})[A-Z]* (\d{1,2}),? (\d{4})", t):  # OCT 3, 2016
        mo, d, y = MONTHS[m[1]], int(m[2]), int(m[3])
    else:
        raise ValueError(f"unrecognised date {s!r}")
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        raise ValueError(f"bad date {s!r}")
    return f"{y:04d}-{mo:02d}-{d:02d}"


def plain_total(s):
    """'RM 29.70' / 'RM41.45' / '9.00' -> '29.70' / '41.45' / '9.00'."""
    t = re.sub(r"^(RM|\$)\s*", "", s.strip(), flags=re.I).replace(",", "")
    if not re.fullmatch(r"\d+\.\d{2}", t):
        raise ValueError(f"unrecognised total {s!r}")
    return t


def main(argv):
    src = argv[1] if len(argv) > 1 else DEFAULT_SRC
    for sid, why in IDS.items():
        with open(os.path.join(src, "key", sid + ".json"), encoding="utf-8") as f:
            key = json.load(f)
        side = {
            "source": "sroie",
            "vendor": key["company"],
            "date": iso_date(key["date"]),
            "total": plain_total(key["total"]),
            "currency": "MYR",
            "sroie_key": key,
            "notes": f"SROIE {sid}: {why}; key date {key['date']!r}.",
        }
        if "address" in key:
            side["address"] = key["address"]
        dst = os.path.join(OUT_DIR, f"sroie-{sid}")
        shutil.copyfile(os.path.join(src, "img", sid + ".jpg"), dst + ".jpg")
        with open(dst + ".json", "w", encoding="utf-8") as f:
            f.write(json.dumps(side, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
        print(f"sroie-{sid}.jpg  {key['date']!r:16} -> {side['date']}  "
              f"{key['total']!r:12} -> {side['total']}  {key['company']}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
