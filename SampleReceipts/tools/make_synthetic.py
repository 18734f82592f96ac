#!/usr/bin/env python3
"""Render the synthetic sample receipts in SampleReceipts/.

Deterministic: fixed seeds, fixed fonts, Pillow's BASIC text layout engine.
Re-running overwrites the same files with the same content (given the same
Pillow / FreeType / zlib / libjpeg versions).

    pip install Pillow
    python3 SampleReceipts/tools/make_synthetic.py

Fonts: DejaVu (Debian/Ubuntu package fonts-dejavu-core), looked up in
/usr/share/fonts/truetype/dejavu/ or $DEJAVU_DIR.

Each receipt is written as <name>.png (or .jpg for the photo-like one) plus
<name>.json holding the expected fields (see SampleReceipts/README.md).
All amounts are computed with Decimal, so items add up to the subtotal,
subtotal + tax = total and tendered - change = total.
"""

import json
import math
import os
import random
import sys
from decimal import Decimal, ROUND_HALF_UP

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.dirname(HERE)
FONT_DIR = os.environ.get("DEJAVU_DIR", "/usr/share/fonts/truetype/dejavu")
SEED = 20240304

# Geometry: ~300 dpi-like. DejaVu Sans Mono at 42 px has a cap height of
# ~31 px and an advance of ~25.3 px, so a 1080 px wide receipt with 50 px
# margins holds 38 characters per line (a typical till receipt).
WIDTH = 1080
MARGIN = 50
TOP = 70
BOTTOM = 90

STYLES = {
    # name: (font file, pixel size)
    "body": ("DejaVuSansMono.ttf", 42),
    "bold": ("DejaVuSansMono-Bold.ttf", 42),
    "total": ("DejaVuSansMono-Bold.ttf", 48),
    "title": ("DejaVuSans-Bold.ttf", 56),
    "sans": ("DejaVuSans.ttf", 42),
}
LINE_FACTOR = 1.36  # line pitch = size * factor

_font_cache = {}


def font(name, size=None):
    path, default = STYLES[name]
    size = size or default
    key = (path, size)
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(
            os.path.join(FONT_DIR, path), size, layout_engine=ImageFont.Layout.BASIC
        )
    return _font_cache[key]


# ---------------------------------------------------------------- money

CENT = Decimal("0.01")


def q2(x):
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)


def money(x, style):
    """Format a Decimal the way the receipt's locale prints it."""
    x = q2(x)
    if style in ("us", "uk", "ca"):
        return f"{x:,.2f}"
    if style == "de":  # 1.249,99
        return f"{x:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
    if style in ("fr", "se"):  # 249,99 (no thousands separator printed)
        return f"{x:.2f}".replace(".", ",")
    if style == "id":  # rupiah, no cents: 36.000
        assert x == x.to_integral_value(), x
        return f"{int(x):,}".replace(",", ".")
    raise ValueError(style)


def dec(x):
    """Decimal -> sidecar string ("1249.99")."""
    return f"{q2(x):.2f}"


# ---------------------------------------------------------------- layout


class Receipt:
    def __init__(self, name, money_style, seed):
        self.name = name
        self.style = money_style
        self.rnd = random.Random(f"{SEED}-{name}-{seed}")
        self.ops = []
        self.meta = {"source": "synthetic"}
        self.items = []

    # --- primitives
    def center(self, text, style="body"):
        self.ops.append(("center", text, style))

    def left(self, text, style="body"):
        self.ops.append(("left", text, style))

    def lr(self, left, right, style="body"):
        self.ops.append(("lr", (left, right), style))

    def rule(self, ch="-"):
        self.ops.append(("rule", ch, "body"))

    def gap(self, px=24):
        self.ops.append(("gap", px, None))

    def barcode(self, digits):
        self.ops.append(("barcode", digits, "body"))

    def m(self, x):
        return money(x, self.style)

    # --- composite helpers
    def title(self, text):
        self.ops.append(("title", text, "title"))

    def add_items(self, rows, qty_fmt="{q} @ {u}", code_col=False, unit_suffix=""):
        """rows: (description, qty, unit_price_str, tax_code_or_None).

        Qty 1 prints on one line; qty > 1 prints the description, then an
        indented "2 @ 6.49" line carrying the amount (common till layout).
        """
        total = Decimal("0")
        for desc, qty, unit, code in rows:
            unit = Decimal(unit)
            amount = q2(unit * qty)
            right = self.m(amount) + unit_suffix
            if code_col:
                right += " " + code if code else "  "
            if qty == 1:
                self.lr(desc, right)
            else:
                self.left(desc)
                self.lr("  " + qty_fmt.format(q=qty, u=self.m(unit)), right)
            self.items.append(
                {
                    "description": desc,
                    "quantity": qty,
                    "unit_price": dec(unit),
                    "amount": dec(amount),
                }
            )
            total += amount
        return total

    # --- rendering
    def _line_h(self, style):
        return int(round(STYLES[style][1] * LINE_FACTOR))

    def _fit(self, text, style, maxw):
        size = STYLES[style][1]
        while size > 34 and font(style, size).getlength(text) > maxw:
            size -= 1
        return font(style, size)

    def render(self, ink=0, paper=255):
        maxw = WIDTH - 2 * MARGIN
        # measure
        h = TOP
        for kind, arg, style in self.ops:
            if kind == "gap":
                h += arg
            elif kind == "barcode":
                h += 150 + self._line_h("body")
            elif kind == "title":
                h += self._line_h("title") + 6
            else:
                h += self._line_h(style)
        h += BOTTOM
        img = Image.new("L", (WIDTH, h), paper)
        d = ImageDraw.Draw(img)
        y = TOP
        for kind, arg, style in self.ops:
            if kind == "gap":
                y += arg
                continue
            if kind == "barcode":
                self._draw_barcode(d, y, arg, ink)
                y += 150 + self._line_h("body")
                continue
            lh = self._line_h(style) + (6 if kind == "title" else 0)
            f = font(style)
            if kind == "title":
                f = self._fit(arg, style, maxw)
                w = f.getlength(arg)
                d.text(((WIDTH - w) / 2, y), arg, font=f, fill=ink)
            elif kind == "center":
                w = f.getlength(arg)
                assert w <= maxw, (self.name, arg)
                d.text(((WIDTH - w) / 2, y), arg, font=f, fill=ink)
            elif kind == "left":
                assert f.getlength(arg) <= maxw, (self.name, arg)
                d.text((MARGIN, y), arg, font=f, fill=ink)
            elif kind == "lr":
                left, right = arg
                wl, wr = f.getlength(left), f.getlength(right)
                assert wl + wr + f.getlength("  ") <= maxw, (self.name, left, right)
                d.text((MARGIN, y), left, font=f, fill=ink)
                d.text((WIDTH - MARGIN - wr, y), right, font=f, fill=ink)
            elif kind == "rule":
                n = int(maxw // f.getlength(arg))
                line = arg * n
                w = f.getlength(line)
                d.text(((WIDTH - w) / 2, y), line, font=f, fill=ink)
            y += lh
        return img

    def _draw_barcode(self, d, y, digits, ink):
        rnd = random.Random(digits)
        bars = []
        for _ in range(70):
            bars.append((rnd.choice((3, 3, 6, 9)), rnd.choice((3, 3, 6))))
        total = sum(a + b for a, b in bars)
        x = (WIDTH - total) / 2
        for bar, space in bars:
            d.rectangle([x, y, x + bar - 1, y + 130], fill=ink)
            x += bar + space
        f = font("body")
        w = f.getlength(digits)
        d.text(((WIDTH - w) / 2, y + 140), digits, font=f, fill=ink)


# ---------------------------------------------------------------- image effects


def _solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                k = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= k * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def perspective_coeffs(dst, src):
    """Coefficients for Image.transform(PERSPECTIVE): output pt -> input pt."""
    a, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b.append(v)
    return _solve(a, b)


def noise(img, rnd, amplitude):
    """Add zero-mean-ish triangular noise of +-amplitude grey levels."""
    w, h = img.size
    n1 = Image.frombytes("L", (w, h), rnd.randbytes(w * h))
    n2 = Image.frombytes("L", (w, h), rnd.randbytes(w * h))
    n1 = n1.point(lambda v: v * amplitude // 255)
    n2 = n2.point(lambda v: v * amplitude // 255)
    return ImageChops.subtract(ImageChops.add(img, n1), n2)


def gradient(size, angle_deg, lo, hi):
    """Linear gradient lo..hi across `size`, direction angle_deg."""
    g = Image.linear_gradient("L").rotate(angle_deg, resample=Image.Resampling.BICUBIC)
    g = g.crop((48, 48, 208, 208)).resize(size, Image.Resampling.BICUBIC)
    return g.point(lambda v: lo + (hi - lo) * v // 255)


def make_photo(paper, rnd, angle=5.0):
    """Paper on a grey uneven table, rotated, slight perspective, blur, noise."""
    pw, ph = paper.size
    # uneven lighting on the paper itself (one edge a little darker)
    shade = gradient(paper.size, 25, 205, 255)
    paper = ImageChops.multiply(paper, shade)

    cw, ch = pw + 320, ph + 260
    bg = ImageChops.multiply(gradient((cw, ch), 120, 80, 165), gradient((cw, ch), 10, 190, 255))
    bg = bg.filter(ImageFilter.GaussianBlur(3))

    cx, cy = cw / 2, ch / 2
    a = math.radians(angle)
    src = [(0, 0), (pw, 0), (pw, ph), (0, ph)]
    # perspective: top edge slightly narrower than the bottom edge
    persp = [(0.035 * pw, 0), (-0.035 * pw, 0), (0.0, 0), (0.0, 0)]
    dst = []
    for (x, y), (px, py) in zip(src, persp):
        x, y = x - pw / 2 + px, y - ph / 2 + py
        dst.append((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)))
    coeffs = perspective_coeffs(dst, src)
    warped = paper.transform((cw, ch), Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BICUBIC, fillcolor=0)
    mask = Image.new("L", paper.size, 255).transform(
        (cw, ch), Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BICUBIC, fillcolor=0
    )
    # soft shadow under the paper
    shadow = mask.filter(ImageFilter.GaussianBlur(14)).point(lambda v: 255 - v * 70 // 255)
    shadow = ImageChops.offset(shadow, 10, 14)
    bg = ImageChops.multiply(bg, shadow)
    img = Image.composite(warped, bg, mask)
    img = img.filter(ImageFilter.GaussianBlur(1.1))
    img = noise(img, rnd, 18)
    return img


def blotches(size, rnd, lo, hi, cells=(9, 12)):
    """Smooth low-frequency random field with values lo..hi."""
    small = Image.frombytes("L", cells, rnd.randbytes(cells[0] * cells[1]))
    field = small.resize(size, Image.Resampling.BICUBIC).filter(ImageFilter.GaussianBlur(25))
    return field.point(lambda v: lo + (hi - lo) * v // 255)


def make_faded(paper, rnd):
    """Faded thermal paper: light grey, unevenly faded ink on off-white."""
    inv = ImageOps.invert(paper)  # ink = 255, paper = 0
    strength = ImageChops.multiply(gradient(paper.size, 70, 150, 255), blotches(paper.size, rnd, 60, 100))
    inv = ImageChops.multiply(inv, strength)  # ink strength ~14%..39%
    out = ImageOps.invert(inv)  # ink ~155..220, paper 255
    tint = blotches(paper.size, rnd, 226, 244)  # yellowed, uneven off-white
    return ImageChops.multiply(out, tint).filter(ImageFilter.GaussianBlur(0.6))


# ---------------------------------------------------------------- receipts


def us_hardware_01():
    r = Receipt("us-hardware-01", "us", 1)
    r.title("Harbor Lane Hardware LLC")
    r.center("1457 Harbor Lane")
    r.center("Port Jefferson, NY 11777")
    r.center("(631) 555-0142")
    r.rule()
    r.lr("03/04/2024 14:32", "STORE 0417")
    r.lr("REG 02  CASHIER DANA", "TRANS 8841")
    r.rule()
    sub = r.add_items(
        [
            ("CLAW HAMMER 16OZ", 1, "14.99", "T"),
            ("WOOD SCREWS #8 1-1/4IN 100PK", 2, "6.49", "T"),
            ("PAINTERS TAPE 1.88IN", 1, "5.97", "T"),
            ("LED BULB 60W EQ 4PK", 1, "9.98", "T"),
            ("UTILITY KNIFE RETRACTABLE", 1, "7.49", "T"),
        ],
        code_col=True,
    )
    tax = q2(sub * Decimal("0.08625"))
    total = sub + tax
    r.rule()
    r.lr("SUBTOTAL", r.m(sub) + "  ")
    r.lr("TAX 8.625%", r.m(tax) + "  ")
    r.lr("TOTAL", "$" + r.m(total) + "  ", "total")
    r.lr("VISA ****1234", "$" + r.m(total) + "  ")
    r.left("AUTH 048213  APPROVED")
    r.lr("CHANGE DUE", "$0.00  ")
    r.left("ITEMS SOLD 6")
    r.left("TRANS# 0417-02-8841")
    r.gap()
    r.center("THANK YOU FOR SHOPPING LOCAL")
    r.meta.update(
        vendor="Harbor Lane Hardware LLC",
        address="1457 Harbor Lane, Port Jefferson, NY 11777",
        phone="(631) 555-0142",
        date="2024-03-04",
        time="14:32",
        currency="USD",
        locale="en_US",
        subtotal=dec(sub),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="1234",
        receipt_number="0417-02-8841",
        notes="US format; ambiguous month-first date 03/04/2024 = 4 March 2024; "
        "sales tax added on top; taxable flag T after amounts.",
    )
    return r, "plain"


def us_electronics_01():
    r = Receipt("us-electronics-01", "us", 2)
    r.title("Brightwave Electronics Inc.")
    r.center("2200 Commerce Pkwy Ste 110")
    r.center("Austin, TX 78758")
    r.center("(512) 555-0199")
    r.gap(10)
    r.lr("SALE", "11/23/2024")
    r.lr("STORE 118  REG 4", "6:07 PM")
    r.left("RECEIPT# 118-4-20931")
    r.rule()
    sub = r.add_items(
        [
            ("SONY WH-1000XM5 HEADPHONES", 1, "349.99", None),
            ("VANTEC 55IN 4K UHD SMART TV", 1, "629.99", None),
            ("HDMI 2.1 CABLE 6FT", 2, "19.99", None),
            ("SURGE PROTECTOR 8-OUTLET", 1, "24.99", None),
            ("2YR PROTECTION PLAN TV", 1, "89.99", None),
        ]
    )
    tax = q2(sub * Decimal("0.0825"))
    total = sub + tax
    r.rule()
    r.lr("SUBTOTAL", r.m(sub))
    r.lr("SALES TAX 8.25%", r.m(tax))
    r.lr("TOTAL", "$" + r.m(total), "total")
    r.lr("VISA CREDIT ****7730", "$" + r.m(total))
    r.left("CHIP READ  AUTH 551902")
    r.rule()
    r.center("RETURN/EXCHANGE BY 12/23/2024")
    r.center("KEEP THIS RECEIPT")
    r.gap()
    r.barcode("1184209311123")
    r.meta.update(
        vendor="Brightwave Electronics Inc.",
        address="2200 Commerce Pkwy Ste 110, Austin, TX 78758",
        phone="(512) 555-0199",
        date="2024-11-23",
        time="18:07",
        currency="USD",
        locale="en_US",
        subtotal=dec(sub),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="7730",
        receipt_number="118-4-20931",
        notes="US format; day > 12 (11/23/2024); 12-hour time; total with "
        "thousands separator ($1,228.57); distractor date RETURN BY "
        "12/23/2024 after the total; barcode at the bottom.",
    )
    return r, "plain"


def us_kitchen_01():
    r = Receipt("us-kitchen-01", "us", 3)
    r.title("Cedar & Pine Home Goods Co.")
    r.center("88 Market Square")
    r.center("Northampton, MA 01060")
    r.center("Tel 413-555-0176")
    r.rule()
    r.lr("Mar 5, 2024", "10:41 AM")
    r.lr("Order 0305-0193", "Reg 1")
    r.rule()
    sub = r.add_items(
        [
            ("STAND MIXER 5QT TILT-HEAD", 1, "379.99", None),
            ("CHEF KNIFE 8IN FORGED", 1, "49.95", None),
            ("NONSTICK SKILLET 12IN", 1, "34.99", None),
            ("DISH TOWELS 4PK", 2, "12.99", None),
        ]
    )
    tax = q2(sub * Decimal("0.0625"))
    total = sub + tax
    r.rule()
    r.lr("SUBTOTAL", r.m(sub))
    r.lr("TAX 6.25%", r.m(tax))
    r.lr("TOTAL", "$" + r.m(total), "total")
    r.lr("MASTERCARD ****5521", "$" + r.m(total))
    r.left("CONTACTLESS  AUTH 77310A")
    r.gap()
    r.center("Returns within 30 days")
    r.center("with receipt. Thank you!")
    r.meta.update(
        vendor="Cedar & Pine Home Goods Co.",
        address="88 Market Square, Northampton, MA 01060",
        phone="413-555-0176",
        date="2024-03-05",
        time="10:41",
        currency="USD",
        locale="en_US",
        subtotal=dec(sub),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="5521",
        receipt_number="0305-0193",
        notes="US; month-name date 'Mar 5, 2024'; 12-hour time; kitchen "
        "appliance for inventory linking.",
    )
    return r, "plain"


def photo_us_cafe_01():
    r = Receipt("photo-us-cafe-01", "us", 4)
    r.title("Blue Heron Coffee Roasters")
    r.center("415 Pine St")
    r.center("Burlington, VT 05401")
    r.center("(802) 555-0133")
    r.rule()
    r.lr("08/14/2024 08:12", "TICKET 0457")
    r.left("SERVER: MAYA")
    r.rule()
    sub = r.add_items(
        [
            ("LATTE 16OZ OAT", 2, "5.75", None),
            ("BLUEBERRY MUFFIN", 1, "3.95", None),
            ("HOUSE BLEND BEANS 12OZ", 1, "16.00", None),
        ]
    )
    tax = q2(sub * Decimal("0.06"))
    total = sub + tax
    cash = Decimal("40.00")
    r.rule()
    r.lr("SUBTOTAL", r.m(sub))
    r.lr("TAX 6%", r.m(tax))
    r.lr("TOTAL", "$" + r.m(total), "total")
    r.lr("CASH", "$" + r.m(cash))
    r.lr("CHANGE", "$" + r.m(cash - total))
    r.gap()
    r.center("Thanks for stopping by!")
    r.meta.update(
        vendor="Blue Heron Coffee Roasters",
        address="415 Pine St, Burlington, VT 05401",
        phone="(802) 555-0133",
        date="2024-08-14",
        time="08:12",
        currency="USD",
        locale="en_US",
        subtotal=dec(sub),
        tax=dec(tax),
        total=dec(total),
        payment="cash",
        cash_tendered=dec(cash),
        change=dec(cash - total),
        receipt_number="0457",
        notes="Photo-like: paper on a grey uneven background, rotated ~5 deg, "
        "slight perspective (top narrower), blur, noise, JPEG.",
    )
    return r, "photo"


def rot90_us_electronics():
    r = Receipt("rot90-us-electronics", "us", 5)
    r.title("Voltline Electronics Corp.")
    r.center("6120 W Sahara Ave")
    r.center("Las Vegas, NV 89146")
    r.center("(702) 555-0161")
    r.rule()
    r.lr("09/18/2024 13:05", "REG 3")
    r.left("TRN 5512")
    r.rule()
    sub = r.add_items(
        [
            ("USB-C CHARGER 65W GAN", 1, "39.99", None),
            ("PHONE CASE CLEAR MAGSAFE", 1, "24.99", None),
            ("WIRELESS MOUSE ERGO", 1, "29.99", None),
        ]
    )
    tax = q2(sub * Decimal("0.08375"))
    total = sub + tax
    r.rule()
    r.lr("SUBTOTAL", r.m(sub))
    r.lr("TAX 8.375%", r.m(tax))
    r.lr("TOTAL", "$" + r.m(total), "total")
    r.lr("AMEX ****1009", "$" + r.m(total))
    r.gap()
    r.center("THANK YOU")
    r.meta.update(
        vendor="Voltline Electronics Corp.",
        address="6120 W Sahara Ave, Las Vegas, NV 89146",
        phone="(702) 555-0161",
        date="2024-09-18",
        time="13:05",
        currency="USD",
        locale="en_US",
        subtotal=dec(sub),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="1009",
        receipt_number="5512",
        notes="Whole image rotated 90 deg counter-clockwise (text runs bottom to "
        "top); the pipeline is expected to auto-rotate (tesseract --psm 0 "
        "reports 'Orientation in degrees: 270, Rotate: 90').",
    )
    return r, "rot90"


def de_supermarkt_01():
    r = Receipt("de-supermarkt-01", "de", 6)
    r.title("Frischmarkt Weber GmbH")
    r.center("Lindenstraße 12")
    r.center("50674 Köln")
    r.center("Tel. 0221 555 0187")
    r.gap(10)
    r.lr("", "EUR")
    rows_a = [
        ("Vollmilch 3,5% 1L", 2, "1.19", "A"),
        ("Bananen Bio 1kg", 1, "1.99", "A"),
        ("Kaffee Bohnen 500g", 1, "7.99", "A"),
    ]
    rows_b = [
        ("Spülmittel 750ml", 1, "2.49", "B"),
        ("Batterien AA 4er", 1, "4.99", "B"),
    ]
    rows = [rows_a[0], rows_a[1], rows_b[0], rows_a[2], rows_b[1]]
    r.add_items(rows, qty_fmt="{q} x {u}", code_col=True)
    gross_a = sum(q2(Decimal(u) * q) for _, q, u, _ in rows_a)
    gross_b = sum(q2(Decimal(u) * q) for _, q, u, _ in rows_b)
    total = gross_a + gross_b
    tax_a = q2(gross_a * 7 / Decimal(107))
    tax_b = q2(gross_b * 19 / Decimal(119))
    cash = Decimal("50.00")
    r.rule()
    r.lr("SUMME EUR", r.m(total) + "  ", "total")
    r.rule()
    r.lr("Bar", r.m(cash) + "  ")
    r.lr("Rückgeld", r.m(cash - total) + "  ")
    r.gap()
    r.lr("MwSt  7% (A) von " + r.m(gross_a), r.m(tax_a) + "  ")
    r.lr("MwSt 19% (B) von " + r.m(gross_b), r.m(tax_b) + "  ")
    r.gap()
    r.lr("14.03.2024 17:52", "Bon 4711")
    r.lr("Kasse 2", "Bed. 07")
    r.gap()
    r.center("Vielen Dank für Ihren Einkauf!")
    r.meta.update(
        vendor="Frischmarkt Weber GmbH",
        address="Lindenstraße 12, 50674 Köln",
        phone="0221 555 0187",
        date="2024-03-14",
        time="17:52",
        currency="EUR",
        locale="de_DE",
        tax=dec(tax_a + tax_b),
        total=dec(total),
        payment="cash",
        cash_tendered=dec(cash),
        change=dec(cash - total),
        receipt_number="4711",
        notes="German supermarket: prices include VAT (two rates, A 7% / B 19%; "
        "'tax' is the sum of both printed MwSt lines); SUMME EUR; cash Bar / "
        "Rückgeld; comma decimals; date DD.MM.YYYY printed at the bottom.",
    )
    return r, "plain"


def de_moebel_01():
    r = Receipt("de-moebel-01", "de", 7)
    r.title("Wohnwelt Hansen GmbH")
    r.center("Industriestraße 41")
    r.center("30659 Hannover")
    r.center("Tel. 0511 555 0123")
    r.center("USt-IdNr. DE123456789")
    r.rule()
    r.left("Rechnung Nr. 2024-118734")
    r.lr("Datum: 02.11.2024", "11:26 Uhr")
    r.rule()
    total = r.add_items(
        [
            ("Sofa 3-Sitzer LIVORNO grau", 1, "949.00", None),
            ("Regal QUADRO 4x4 weiß", 2, "89.99", None),
            ("Stehleuchte ARC Messing", 1, "59.00", None),
            ("Lieferung & Montage", 1, "49.00", None),
        ],
        qty_fmt="{q} x {u} €",
        unit_suffix=" €",
    )
    tax = q2(total * 19 / Decimal(119))
    net = total - tax
    r.rule()
    r.lr("SUMME", r.m(total) + " €", "total")
    r.lr("Netto", r.m(net) + " €")
    r.lr("MwSt 19%", r.m(tax) + " €")
    r.rule()
    r.lr("girocard", r.m(total) + " €")
    r.left("Karte XXXXXXXXXXXX6029")
    r.left("Terminal 58421907  Beleg 0913")
    r.gap()
    r.center("Vielen Dank für Ihren Besuch!")
    r.meta.update(
        vendor="Wohnwelt Hansen GmbH",
        address="Industriestraße 41, 30659 Hannover",
        phone="0511 555 0123",
        date="2024-11-02",
        time="11:26",
        currency="EUR",
        locale="de_DE",
        subtotal=dec(net),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="6029",
        receipt_number="2024-118734",
        notes="German furniture store invoice: total with thousands separator "
        "(1.236,98 €), euro sign after the amount; VAT included (subtotal = "
        "printed Netto); girocard payment; DD.MM.YYYY.",
    )
    return r, "plain"


def faded_de_baeckerei_01():
    r = Receipt("faded-de-baeckerei-01", "de", 8)
    r.title("Bäckerei Sonnenschein GmbH")
    r.center("Hauptstraße 7")
    r.center("79098 Freiburg i. Br.")
    r.center("Tel. 0761 555 0148")
    r.rule()
    r.lr("16.02.2024 07:48", "Bon-Nr. 3381")
    r.rule()
    total = r.add_items(
        [
            ("Roggenbrot 750g", 1, "3.90", None),
            ("Laugenbrezel", 3, "0.85", None),
            ("Croissant", 1, "1.40", None),
            ("Kaffee to go", 1, "2.80", None),
        ],
        qty_fmt="{q} x {u}",
    )
    tax = q2(total * 7 / Decimal(107))
    cash = Decimal("20.00")
    r.rule()
    r.lr("SUMME EUR", r.m(total), "total")
    r.lr("Bar", r.m(cash))
    r.lr("Rückgeld", r.m(cash - total))
    r.gap()
    r.lr("MwSt 7%", r.m(tax))
    r.lr("Netto", r.m(total - tax))
    r.gap()
    r.center("Schönen Tag noch!")
    r.meta.update(
        vendor="Bäckerei Sonnenschein GmbH",
        address="Hauptstraße 7, 79098 Freiburg i. Br.",
        phone="0761 555 0148",
        date="2024-02-16",
        time="07:48",
        currency="EUR",
        locale="de_DE",
        subtotal=dec(total - tax),
        tax=dec(tax),
        total=dec(total),
        payment="cash",
        cash_tendered=dec(cash),
        change=dec(cash - total),
        receipt_number="3381",
        notes="Low contrast: faded thermal paper, light grey unevenly faded "
        "ink on off-white; umlaut in the vendor name; VAT included (subtotal "
        "= printed Netto).",
    )
    return r, "faded"


def fr_maison_01():
    r = Receipt("fr-maison-01", "fr", 9)
    r.title("Maison Dupont SARL")
    r.center("12 rue des Tanneurs")
    r.center("69002 Lyon")
    r.center("Tél. 04 78 55 01 23")
    r.center("SIRET 812 345 678 00019")
    r.rule()
    r.lr("27/06/2024", "15:08")
    r.lr("Ticket 0042-118", "Caisse 1")
    r.rule()
    total = r.add_items(
        [
            ("Casserole inox 24cm", 1, "39.90", None),
            ("Lot 6 verres Bistrot", 1, "14.50", None),
            ("Ampoule LED E27 806lm", 2, "4.95", None),
            ("Torchons lin x3", 1, "18.00", None),
        ],
        qty_fmt="{q} x {u}",
    )
    tax = q2(total * 20 / Decimal(120))
    net = total - tax
    r.rule()
    r.lr("TOTAL TTC", r.m(total) + " EUR", "total")
    r.lr("Total HT", r.m(net))
    r.lr("TVA 20%", r.m(tax))
    r.rule()
    r.lr("CB SANS CONTACT", r.m(total))
    r.left("Carte **** **** **** 7312")
    r.gap()
    r.center("Merci de votre visite !")
    r.meta.update(
        vendor="Maison Dupont SARL",
        address="12 rue des Tanneurs, 69002 Lyon",
        phone="04 78 55 01 23",
        date="2024-06-27",
        time="15:08",
        currency="EUR",
        locale="fr_FR",
        subtotal=dec(net),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="7312",
        receipt_number="0042-118",
        notes="French: TOTAL TTC, TVA 20% (included; subtotal = printed Total "
        "HT), comma decimals, DD/MM/YYYY, payment by CB.",
    )
    return r, "plain"


def uk_diy_01():
    r = Receipt("uk-diy-01", "uk", 10)
    r.title("Thornbury & Sons Ltd")
    r.center("14 High Street")
    r.center("Harrogate HG1 1TT")
    r.center("Tel: 01423 555019")
    r.center("VAT No. GB 123 4567 89")
    r.rule()
    r.lr("09/07/2024 12:18", "Till 2")
    r.left("Receipt 77120")
    r.rule()
    total = r.add_items(
        [
            ("Kettle 1.7L Stainless", 1, "34.99", None),
            ("Extension Lead 4 Gang 2m", 1, "12.50", None),
            ("Bin Bags 50pk", 2, "3.75", None),
            ("Picture Hooks Assorted", 1, "2.99", None),
        ],
        qty_fmt="{q} x £{u}",
    )
    tax = q2(total * 20 / Decimal(120))
    r.rule()
    r.lr("TOTAL", "£" + r.m(total), "total")
    r.lr("Contactless VISA DEBIT", "£" + r.m(total))
    r.left("Card ************8830")
    r.rule()
    r.lr("VAT 20% incl.", r.m(tax))
    r.lr("Net", r.m(total - tax))
    r.gap()
    r.center("Thank you for your custom")
    r.meta.update(
        vendor="Thornbury & Sons Ltd",
        address="14 High Street, Harrogate HG1 1TT",
        phone="01423 555019",
        date="2024-07-09",
        time="12:18",
        currency="GBP",
        locale="en_GB",
        subtotal=dec(total - tax),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="8830",
        receipt_number="77120",
        notes="UK: pound sign, ambiguous day-first date 09/07/2024 = 9 July "
        "2024 (must not be read as Sept 7), VAT included (subtotal = printed Net); "
        "long masked card number (OCR tends to garble the last 4).",
    )
    return r, "plain"


def se_jarnhandel_01():
    r = Receipt("se-jarnhandel-01", "se", 11)
    r.title("Nordvik Järnhandel AB")
    r.center("Storgatan 8")
    r.center("852 30 Sundsvall")
    r.center("Tel 060-55 01 23")
    r.center("Org.nr 556123-4567")
    r.rule()
    r.lr("Datum 2024-05-17", "Tid 09:26")
    r.lr("Kvitto 20451", "Kassa 1")
    r.rule()
    total = r.add_items(
        [
            ("Skruvdragare 18V", 1, "699.00", None),
            ("Bits-sats 32 delar", 1, "129.00", None),
            ("Träskruv 4x40 200st", 2, "59.90", None),
            ("Arbetshandskar", 1, "49.00", None),
        ],
        qty_fmt="{q} x {u}",
    )
    tax = q2(total * 25 / Decimal(125))
    r.rule()
    r.lr("TOTALT SEK", r.m(total), "total")
    r.lr("Moms 25%", r.m(tax))
    r.lr("Netto", r.m(total - tax))
    r.rule()
    r.lr("Kort VISA ****2291", r.m(total))
    r.gap()
    r.center("Tack för ditt köp!")
    r.meta.update(
        vendor="Nordvik Järnhandel AB",
        address="Storgatan 8, 852 30 Sundsvall",
        phone="060-55 01 23",
        date="2024-05-17",
        time="09:26",
        currency="SEK",
        locale="sv_SE",
        subtotal=dec(total - tax),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="2291",
        receipt_number="20451",
        notes="Swedish hardware store: ISO date YYYY-MM-DD, TOTALT SEK, Moms "
        "25% included (subtotal = printed Netto), comma decimals.",
    )
    return r, "plain"


def ca_outfitters_01():
    r = Receipt("ca-outfitters-01", "ca", 12)
    r.title("Lakeshore Outfitters Ltd.")
    r.center("1120 Queen St E")
    r.center("Toronto, ON M4M 1K8")
    r.center("416-555-0172")
    r.center("HST# 812345678 RT0001")
    r.rule()
    r.lr("2024-08-09 16:45", "POS 3")
    r.left("Receipt #30118")
    r.rule()
    sub = r.add_items(
        [
            ("CAMP STOVE 2-BURNER", 1, "89.99", None),
            ("PROPANE CYLINDER 1LB", 2, "7.49", None),
            ("LED LANTERN 500LM", 1, "34.99", None),
            ("WATER FILTER PUMP", 1, "79.95", None),
        ]
    )
    tax = q2(sub * Decimal("0.13"))
    total = sub + tax
    r.rule()
    r.lr("SUBTOTAL", r.m(sub))
    r.lr("HST 13%", r.m(tax))
    r.lr("TOTAL", "$" + r.m(total), "total")
    r.lr("INTERAC DEBIT ****5068", "$" + r.m(total))
    r.gap()
    r.center("Thank you / Merci")
    r.meta.update(
        vendor="Lakeshore Outfitters Ltd.",
        address="1120 Queen St E, Toronto, ON M4M 1K8",
        phone="416-555-0172",
        date="2024-08-09",
        time="16:45",
        currency="CAD",
        locale="en_CA",
        subtotal=dec(sub),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="5068",
        receipt_number="30118",
        notes="Canadian: ISO date YYYY-MM-DD, dollar sign but CAD, HST 13% "
        "added on top, Interac debit.",
    )
    return r, "plain"


def id_warung_01():
    r = Receipt("id-warung-01", "id", 13)
    r.title("Warung Kopi Senja")
    r.center("Jl. Melati No. 12")
    r.center("Bandung 40115")
    r.center("Telp 022-555-0148")
    r.center("NPWP 01.234.567.8-901.000")
    r.rule()
    r.lr("Tgl 14/03/2024", "Jam 19:42")
    r.lr("No. 000318", "Kasir Dewi")
    r.rule()
    sub = r.add_items(
        [
            ("Kopi Susu Aren", 2, "18000", None),
            ("Roti Bakar Keju", 1, "22500", None),
            ("Pisang Goreng", 1, "15000", None),
            ("Es Teh Manis", 1, "8000", None),
        ],
        qty_fmt="{q} x {u}",
    )
    tax = sub / 10
    total = sub + tax
    cash = Decimal("100000")
    r.rule()
    r.lr("Subtotal", r.m(sub))
    r.lr("Pajak 10%", r.m(tax))
    r.lr("TOTAL", "Rp " + r.m(total), "total")
    r.lr("Tunai", r.m(cash))
    r.lr("Kembali", r.m(cash - total))
    r.rule()
    r.center("Terima kasih")
    r.meta.update(
        vendor="Warung Kopi Senja",
        address="Jl. Melati No. 12, Bandung 40115",
        phone="022-555-0148",
        date="2024-03-14",
        time="19:42",
        currency="IDR",
        locale="id_ID",
        subtotal=dec(sub),
        tax=dec(tax),
        total=dec(total),
        payment="cash",
        cash_tendered=dec(cash),
        change=dec(cash - total),
        receipt_number="000318",
        notes="Indonesian cafe: rupiah without cents, thousands grouped by points "
        "(36.000), Pajak 10% added, a tax number (NPWP) of dotted groups, cash Tunai / Kembali.",
    )
    return r, "plain"


def us_diner_01():
    # A diner's check: its name printed wide (letters apart), the time the table opened beside the date and the
    # time the check was closed first on the total's line; the closing time is when it was paid.
    r = Receipt("us-diner-01", "us", 14)
    r.center("S U N N Y S I D E   D I N E R", "bold")
    r.center("1420 Orchard Ave")
    r.center("Lakewood, OH 44107")
    r.center("216-555-0148")
    r.rule()
    r.lr("Chk 2291  Table 7", "04/12/2024 12:11 PM")
    r.left("Server: Dana  Guests: 2")
    r.rule()
    sub = r.add_items(
        [
            ("CLUB SANDWICH", 1, "12.50", None),
            ("TOMATO SOUP", 1, "6.25", None),
            ("ICED TEA", 2, "3.25", None),
        ]
    )
    tax = q2(sub * Decimal("0.08"))
    total = sub + tax
    r.rule()
    r.lr("Subtotal", r.m(sub))
    r.lr("Tax 8%", r.m(tax))
    r.lr("12:48PM Total", "$" + r.m(total), "total")
    r.lr("VISA ****4417", "$" + r.m(total))
    r.gap()
    r.center("Thank you, come again!")
    r.meta.update(
        vendor="SUNNYSIDE DINER",
        address="1420 Orchard Ave, Lakewood, OH 44107",
        phone="216-555-0148",
        date="2024-04-12",
        time="12:48",
        currency="USD",
        locale="en_US",
        subtotal=dec(sub),
        tax=dec(tax),
        total=dec(total),
        payment="card",
        card_last4="4417",
        notes="US diner check; name printed with its letters apart; opened 12:11 PM beside the date, "
        "closed 12:48PM first on the total's line (the time paid).",
    )
    return r, "plain"


RECEIPTS = [
    us_hardware_01,
    us_electronics_01,
    us_kitchen_01,
    photo_us_cafe_01,
    rot90_us_electronics,
    de_supermarkt_01,
    de_moebel_01,
    faded_de_baeckerei_01,
    fr_maison_01,
    uk_diy_01,
    se_jarnhandel_01,
    ca_outfitters_01,
    id_warung_01,
    us_diner_01,
]


def check(meta):
    """Arithmetic self-check of a sidecar."""
    items = meta.get("line_items", [])
    for it in items:
        assert q2(Decimal(it["unit_price"]) * it["quantity"]) == Decimal(it["amount"]), it
    total = Decimal(meta["total"])
    items_sum = sum(Decimal(it["amount"]) for it in items)
    if "subtotal" in meta and meta["locale"] in ("en_US", "en_CA", "id_ID"):
        assert items_sum == Decimal(meta["subtotal"]), meta["vendor"]
    else:
        assert items_sum == total, meta["vendor"]
    if "subtotal" in meta and "tax" in meta:
        assert Decimal(meta["subtotal"]) + Decimal(meta["tax"]) == total, meta["vendor"]
    if "cash_tendered" in meta:
        assert Decimal(meta["cash_tendered"]) - Decimal(meta["change"]) == total


def main():
    # Names given (`make_synthetic.py id-warung-01`): only those receipts, the others left as they are.
    only = set(sys.argv[1:])
    for fn in RECEIPTS:
        if only and fn.__name__.replace("_", "-") not in only:
            continue
        r, variant = fn()
        meta = dict(r.meta)
        meta["line_items"] = r.items
        check(meta)
        if variant == "faded":
            img = make_faded(r.render(), random.Random(f"{SEED}-{r.name}-faded"))
        else:
            img = r.render()
        if variant == "photo":
            img = make_photo(img, random.Random(f"{SEED}-{r.name}-photo"))
            path = os.path.join(OUT_DIR, r.name + ".jpg")
            img.save(path, "JPEG", quality=60, optimize=True)
        else:
            if variant == "rot90":
                img = img.transpose(Image.Transpose.ROTATE_90)
            path = os.path.join(OUT_DIR, r.name + ".png")
            img.save(path, "PNG", optimize=True)
        with open(os.path.join(OUT_DIR, r.name + ".json"), "w", encoding="utf-8") as f:
            f.write(json.dumps(meta, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
        print(f"{os.path.relpath(path, OUT_DIR):32s} {img.size[0]}x{img.size[1]} "
              f"{os.path.getsize(path) // 1024} KB")
    # The Malaysian-style scans, A4 page and photos (malaysia.py).
    if only:
        return
    import malaysia
    for r, capture in malaysia.receipts():
        meta = dict(r.meta)
        meta["line_items"] = r.items
        malaysia.check_my(meta)
        img, ext, dpi = malaysia.render(r, capture)
        path = os.path.join(OUT_DIR, r.name + "." + ext)
        img.save(path, "JPEG", quality=80 if dpi < 600 else 75, optimize=True, dpi=(dpi, dpi))
        with open(os.path.join(OUT_DIR, r.name + ".json"), "w", encoding="utf-8") as f:
            f.write(json.dumps(meta, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
        print(f"{os.path.relpath(path, OUT_DIR):32s} {img.size[0]}x{img.size[1]} "
              f"{os.path.getsize(path) // 1024} KB  {capture}")


if __name__ == "__main__":
    sys.exit(main())
