#!/usr/bin/python3
"""Two receipts from one invented shop, for the shop directory's tests (issue 22).

    python3 Tests/Fixtures/tools/make_shop_fixtures.py

writes Tests/Fixtures/shops/kedai-mutiara-{1,2}.jpg and their .json with
SampleReceipts/tools/malaysia.py (the same rendering, fonts and scan as the
Malaysian samples; see SampleReceipts/README.md for what it needs). The shop,
its registration number, address and phone are invented. Its brand is printed
above the company name in brackets, which the parser joins into one vendor
("KEDAI MAKAN MUTIARA (MUTIARA SELERA SDN BHD)"): the vendor a user corrects
once, and that the second receipt must then take from the shop it learned.
The two visits differ in date, items, total and layout, and share the
registration, SST and phone numbers and the address.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "SampleReceipts", "tools"))

import malaysia  # noqa: E402

OUT_DIR = os.path.join(ROOT, "Tests", "Fixtures", "shops")

SHOP = dict(brand="KEDAI MAKAN MUTIARA", vendor="MUTIARA SELERA SDN BHD", reg="1187734-H", bracket=True,
            addr=["NO. 21, JALAN MERAK 4,", "TAMAN SERI MUTIARA,", "81300 SKUDAI, JOHOR."],
            phone="07-556 2391", tax="sst", sst="W10-1807-32001456")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    for visit, (index, date_form, time_form) in enumerate([(40, "dd/mm/yyyy", "24"), (41, "dd-mm-yyyy", "12")], start=1):
        key = f"kedai-mutiara-{visit}"
        malaysia.KIND_OF[key] = "food"
        malaysia.CAPTURE[key] = (date_form, time_form, "scan200")
        r, capture = malaysia.malaysian(dict(SHOP, key=key), index)
        r.name = key
        meta = dict(r.meta)
        meta["line_items"] = r.items
        malaysia.check_my(meta)
        img, ext, dpi = malaysia.render(r, capture)
        path = os.path.join(OUT_DIR, key + "." + ext)
        img.save(path, "JPEG", quality=80, optimize=True, dpi=(dpi, dpi))
        with open(os.path.join(OUT_DIR, key + ".json"), "w", encoding="utf-8") as f:
            f.write(json.dumps(meta, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
        print(f"{os.path.relpath(path, ROOT)} {img.size[0]}x{img.size[1]} {meta['date']} {meta['total']}")


if __name__ == "__main__":
    sys.exit(main())
