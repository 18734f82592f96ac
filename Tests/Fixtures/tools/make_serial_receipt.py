#!/usr/bin/env python3
"""Renders Tests/Fixtures/serials/us-serials-01.png and its sidecar .json: an invented
electronics receipt that prints serial numbers (and an IMEI) under its items, for the
tests that read it with Tesseract and link it to an inventory by serial number.

Uses SampleReceipts/tools/make_synthetic.py's renderer (Pillow, DejaVu fonts):

    pip install Pillow
    python3 Tests/Fixtures/tools/make_serial_receipt.py

Every name, number and amount here is invented.
"""
import json
import os
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "SampleReceipts", "tools"))
import make_synthetic as ms  # noqa: E402

OUT = os.path.join(ROOT, "Tests", "Fixtures", "serials")


def receipt():
    r = ms.Receipt("us-serials-01", "us", 7)
    r.title("Quillfield Computers")
    r.center("88 Juniper Ave")
    r.center("Madison, WI 53703")
    r.gap(10)
    r.lr("SALE", "10/14/2024")
    r.lr("REG 2", "3:42 PM")
    r.rule()
    sub = Decimal("0")
    for desc, unit, serials in [
        ("ORBITAL LAPTOP 14 16GB", "1149.00", ["S/N: QF14-7730-2291"]),
        ("NIMBUS PHONE 128GB", "699.00", ["IMEI: 356938035643809"]),
        ("USB-C CHARGER 65W", "39.99", []),
    ]:
        amount = Decimal(unit)
        r.lr(desc, r.m(amount))
        for s in serials:
            r.left("  " + s)
        r.items.append({"description": desc, "quantity": 1, "unit_price": ms.dec(amount), "amount": ms.dec(amount),
                        "serials": [s.split(": ", 1)[1] for s in serials]})
        sub += amount
    tax = ms.q2(sub * Decimal("0.055"))
    total = sub + tax
    r.rule()
    r.lr("SUBTOTAL", r.m(sub))
    r.lr("SALES TAX 5.5%", r.m(tax))
    r.lr("TOTAL", "$" + r.m(total), "total")
    r.lr("VISA ****4410", "$" + r.m(total))
    r.meta.update(vendor="Quillfield Computers", date="2024-10-14", time="15:42", currency="USD",
                  subtotal=ms.dec(sub), tax=ms.dec(tax), total=ms.dec(total), payment="card", card_last4="4410")
    return r


def main():
    os.makedirs(OUT, exist_ok=True)
    r = receipt()
    meta = dict(r.meta)
    meta["line_items"] = r.items
    img = r.render()
    path = os.path.join(OUT, r.name + ".png")
    img.save(path, "PNG", optimize=True)
    with open(os.path.join(OUT, r.name + ".json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(meta, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
    print(f"{os.path.relpath(path, ROOT)} {img.size[0]}x{img.size[1]} {os.path.getsize(path) // 1024} KB")


if __name__ == "__main__":
    main()
