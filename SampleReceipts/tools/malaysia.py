"""Malaysian-style shop receipts for SampleReceipts/ (imported by make_synthetic.py).

Every shop, name, registration number, address, phone and item here is
invented. The receipts copy the conventions of Malaysian till receipts, not
any receipt: `SDN BHD` legal names under a brand, `CO. REG` and `GST ID` /
`SST` lines, GST 6 % or SST added to the subtotal, `ROUNDING ADJ` to the
nearest 5 sen, `CASH` / `CHANGE`, day-first dates in many forms, 12- and
24-hour times, `RM` amounts.

Each receipt is rendered at the ~300 dpi scale of the other samples, then
"scanned": reduced to 150-200 dpi, faded, skewed, with scanner noise and JPEG
(like the scans of a household's pile); one is an A4 flatbed page at 600 dpi;
three are phone photos (perspective, shade, blur).
"""

import random
from decimal import Decimal

from PIL import Image, ImageChops, ImageFilter

import make_synthetic as ms
from make_synthetic import Receipt, dec, q2

MONTHS = "JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split()

# Date forms seen on Malaysian tills: (format function of (y, m, d), description).
DATE_FORMS = {
    "dd/mm/yyyy": lambda y, m, d: f"{d:02d}/{m:02d}/{y}",
    "dd/mm/yy": lambda y, m, d: f"{d:02d}/{m:02d}/{y % 100:02d}",
    "dd-mm-yy": lambda y, m, d: f"{d:02d}-{m:02d}-{y % 100:02d}",
    "dd-mm-yyyy": lambda y, m, d: f"{d:02d}-{m:02d}-{y}",
    "dd MON yyyy": lambda y, m, d: f"{d:02d} {MONTHS[m - 1]} {y}",
    "dd-MON-yyyy": lambda y, m, d: f"{d:02d}-{MONTHS[m - 1]}-{y}",
    "dd-Mon-yy": lambda y, m, d: f"{d:02d}-{MONTHS[m - 1].title()}-{y % 100:02d}",
    "dd.mm.yyyy": lambda y, m, d: f"{d:02d}.{m:02d}.{y}",
    "yyyy-mm-dd": lambda y, m, d: f"{y}-{m:02d}-{d:02d}",
    "ddmmyyyy": lambda y, m, d: f"{d:02d}{m:02d}{y}",
}


def time_text(h, mi, s, form):
    if form == "24":
        return f"{h:02d}:{mi:02d}"
    if form == "24s":
        return f"{h:02d}:{mi:02d}:{s:02d}"
    hh = h % 12 or 12
    ap = "PM" if h >= 12 else "AM"
    if form == "12":
        return f"{hh}:{mi:02d} {ap}"
    return f"{hh:02d}:{mi:02d}:{s:02d} {ap}"  # "12s"


# Invented shops. brand: a trading name printed above the legal one (or None);
# vendor: the legal name, the field's expected value (the line ending in SDN BHD,
# or the business name where there is no company).
SHOPS = [
    dict(key="hardware-01", brand=None, vendor="TEKUN JAYA HARDWARE SDN BHD", reg="1023456-K",
         addr=["NO. 12, JALAN PERMATA 3/2,", "TAMAN PERMATA INDAH,", "43300 SERI KEMBANGAN, SELANGOR."],
         phone="03-8941 2207", tax="gst"),
    dict(key="restoran-01", brand="RESTORAN DAUN KESUM", vendor="DAUN KESUM CATERING SDN BHD", reg="884512-W",
         addr=["LOT 5, JALAN SS 21/9,", "47400 PETALING JAYA."], phone="03-7732 5510", tax="sst"),
    dict(key="kedai-01", brand=None, vendor="KEDAI RUNCIT SERI CEMPAKA", reg="JM0712345-U",
         addr=["NO 8, JALAN BESAR,", "77000 JASIN, MELAKA."], phone="06-529 1184", tax="none"),
    dict(key="stationery-01", brand="PENA EMAS STATIONERY", vendor="PENA EMAS ENTERPRISE SDN BHD", reg="612093-A",
         addr=["G-07, WISMA ANGSANA,", "JALAN TUN RAZAK,", "50400 KUALA LUMPUR"], phone="03-2161 9045", tax="gst"),
    dict(key="bakery-01", brand=None, vendor="ROTI MENTARI BAKERY SDN BHD", reg="775201-T",
         addr=["22, JALAN KENANGA 1,", "81200 JOHOR BAHRU, JOHOR"], phone="07-236 4410", tax="gst"),
    dict(key="pharmacy-01", brand="FARMASI SINAR BULAN", vendor="SINAR BULAN HEALTHCARE SDN BHD", reg="1198845-P",
         addr=["NO. 3 JALAN MERBAU 2,", "BANDAR BARU BANGI,", "43650 BANGI, SELANGOR"], phone="03-8925 6631", tax="sst"),
    dict(key="petrol-01", brand="STESEN MINYAK KERINCI", vendor="KERINCI PETRO SERVICES SDN BHD", reg="902116-H",
         addr=["KM 14, JALAN KLANG LAMA,", "58200 KUALA LUMPUR"], phone="03-7983 4402", tax="gst"),
    dict(key="furniture-01", brand=None, vendor="PERABOT ANGGERIK MAJU SDN BHD", reg="540987-D",
         addr=["LOT 1120, JALAN INDUSTRI 4,", "KAWASAN PERINDUSTRIAN RAWANG,", "48000 RAWANG, SELANGOR."],
         phone="03-6091 7733", tax="gst"),
    dict(key="mart-01", brand="MINI MART TIGA BINTANG", vendor="TIGA BINTANG MART SDN BHD", reg="1067742-V",
         addr=["NO 41, JALAN PASAR BARU,", "41400 KLANG, SELANGOR."], phone="03-3372 8190", tax="sst"),
    dict(key="cafe-01", brand=None, vendor="KOPITIAM BUKIT TINGGI SDN BHD", reg="997310-M",
         addr=["12-G, JALAN TEMPUA 5,", "BANDAR PUCHONG JAYA,", "47100 PUCHONG."], phone="03-5882 6014", tax="sst"),
    dict(key="electrical-01", brand=None, vendor="LAMPU TERANG ELECTRICAL TRADING", reg="002345678-X",
         addr=["NO. 77, JALAN TUN SAMBANTHAN,", "30000 IPOH, PERAK."], phone="05-254 9981", tax="gst"),
    dict(key="bookshop-01", brand="KEDAI BUKU HALAMAN", vendor="HALAMAN ILMU SDN BHD", reg="447120-K",
         addr=["LOT 2-15, PLAZA SETIA,", "JALAN SETIA PRIMA,", "40170 SHAH ALAM"], phone="03-3358 1276", tax="gst"),
    dict(key="nasi-01", brand=None, vendor="RESTORAN NASI KANDAR SRI PULAU", reg="PG0223456-T",
         addr=["NO. 9, LEBUH CHULIA,", "10200 GEORGETOWN, PULAU PINANG"], phone="04-261 7745", tax="none"),
    dict(key="optical-01", brand="OPTIK CAHAYA MATA", vendor="CAHAYA MATA OPTICAL SDN BHD", reg="815544-U",
         addr=["F-12, JALAN BUKIT BINTANG,", "55100 KUALA LUMPUR."], phone="03-2148 5520", tax="sst"),
    dict(key="hardware-02", brand=None, vendor="SYARIKAT BESI WAJA TRADING SDN BHD", reg="331908-W",
         addr=["NO 5, JALAN KILANG 2,", "SUNGAI BULOH,", "47000 SELANGOR"], phone="03-6156 2284", tax="gst"),
    dict(key="florist-01", brand="TAMAN BUNGA FLORIST", vendor="BUNGA RAYA GARDEN SDN BHD", reg="1210076-A",
         addr=["28, JALAN MAWAR,", "TAMAN SRI ANDALAS,", "41200 KLANG"], phone="012-366 4189", tax="sst"),
    dict(key="a4-invoice-01", brand=None, vendor="DINAMIK PAPAN LAPIS SDN BHD", reg="278651-H",
         addr=["NO. 18, JALAN PERUSAHAAN 2,", "BATU CAVES INDUSTRIAL AREA,", "68100 BATU CAVES, SELANGOR."],
         phone="03-6187 3320", tax="gst"),
    dict(key="photo-restoran-02", brand="RESTORAN PELITA SENJA", vendor="PELITA SENJA FOOD SDN BHD", reg="930221-P",
         addr=["NO 3, JALAN 14/20,", "46100 PETALING JAYA."], phone="03-7956 0048", tax="sst"),
    dict(key="photo-mart-02", brand=None, vendor="PASARAYA SEGAR MURNI SDN BHD", reg="689922-X",
         addr=["LOT PT 1203, JALAN BESAR,", "43000 KAJANG, SELANGOR"], phone="03-8736 1105", tax="gst"),
    dict(key="photo-hardware-03", brand=None, vendor="PERNIAGAAN ALAT GANTI RIMBUN", reg="SA0098765-K",
         addr=["NO. 60, JALAN SULTAN ISMAIL,", "20200 KUALA TERENGGANU"], phone="09-622 3318", tax="none"),
    dict(key="faded-cafe-02", brand="KEDAI KOPI SEMANGAT", vendor="SEMANGAT KOPI SDN BHD", reg="1134409-D",
         addr=["15, JALAN DATO ONN,", "80000 JOHOR BAHRU"], phone="07-223 0912", tax="sst"),
    dict(key="faded-mart-03", brand=None, vendor="KEDAI SERBANEKA HARUM MANIS", reg="NS0041122-W",
         addr=["NO. 2, JALAN DATO BANDAR TUNGGAL,", "70000 SEREMBAN"], phone="06-762 8840", tax="none"),
]

# Item pools per kind of shop: (description, unit price).
ITEMS = {
    "hardware": [("PVC PIPE 1/2\" 10FT", "7.50"), ("CABLE TIE 8\" 100PCS", "4.80"), ("WALL PLUG 6MM", "1.20"),
                 ("SCREW 4X25MM 50PCS", "3.90"), ("PAINT BRUSH 2\"", "5.60"), ("MASKING TAPE 24MM", "2.70"),
                 ("HOSE CLIP 1\"", "1.90"), ("SILICONE SEALANT", "12.90"), ("PADLOCK 40MM", "18.50"),
                 ("SANDPAPER #240", "0.90"), ("EXTENSION SOCKET 3 WAY", "24.90")],
    "food": [("NASI LEMAK AYAM", "9.50"), ("TEH TARIK", "2.20"), ("ROTI CANAI", "1.60"), ("MEE GORENG MAMAK", "7.00"),
             ("KOPI O AIS", "2.00"), ("AYAM GORENG BEREMPAH", "8.90"), ("NASI PUTIH", "1.50"), ("SAYUR CAMPUR", "6.00"),
             ("LIMAU AIS", "2.50"), ("CHAR KUEY TEOW", "8.00"), ("TEH O PANAS", "1.40")],
    "grocery": [("BERAS WANGI 5KG", "18.90"), ("MINYAK MASAK 2KG", "11.70"), ("GULA PASIR 1KG", "2.85"),
                ("TELUR GRED A 10BIJI", "4.50"), ("SUSU PEKAT MANIS", "3.45"), ("MILO 1KG", "16.90"),
                ("ROTI GARDENIA", "3.70"), ("SABUN CECAIR 900ML", "8.90"), ("TISU MUKA 4X100", "9.90"),
                ("AIR MINERAL 1.5L", "1.80"), ("MEE SEGERA 5PKT", "4.60")],
    "stationery": [("A4 PAPER 80GSM 500S", "13.90"), ("BALL PEN BLUE 0.7", "1.20"), ("STAPLER NO.10", "6.50"),
                   ("FILE CLEAR HOLDER A4", "4.20"), ("CORRECTION TAPE", "3.80"), ("GLUE STICK 21G", "2.90"),
                   ("EXERCISE BOOK 120PG", "1.90"), ("HIGHLIGHTER 4 COLOR", "7.90")],
    "pharmacy": [("PANADOL ACTIFAST 20S", "13.50"), ("VITAMIN C 1000MG 30S", "29.90"), ("PLASTER STRIPS 100S", "8.40"),
                 ("HAND SANITIZER 500ML", "12.90"), ("FACE MASK 50PCS", "15.00"), ("MINYAK ANGIN 5ML", "4.20")],
    "furniture": [("STUDY TABLE 120CM OAK", "389.00"), ("OFFICE CHAIR MESH", "259.00"), ("BOOKSHELF 5 TIER", "199.00"),
                  ("DELIVERY CHARGES", "50.00"), ("SHOE RACK 4 TIER", "89.00")],
    "books": [("KAMUS DWIBAHASA", "45.90"), ("NOVEL: HUJAN SENJA", "29.90"), ("BUKU LATIHAN MATEMATIK", "12.50"),
              ("ATLAS DUNIA", "35.00"), ("COLOUR PENCIL 24S", "14.90")],
    "fuel": [("PRIMAX 95", "2.20"), ("CAR WASH", "8.00"), ("ENGINE OIL 4L", "89.00"), ("MINERAL WATER 500ML", "1.30")],
    "electrical": [("LED BULB 9W E27", "7.90"), ("CEILING FAN 56\"", "189.00"), ("MCB 20A SINGLE POLE", "14.50"),
                   ("WIRE 2.5MM 90M", "129.00"), ("SWITCH 1 GANG", "6.80")],
    "optical": [("FRAME TITANIUM", "380.00"), ("LENS PROGRESSIVE", "620.00"), ("CONTACT LENS SOLUTION", "28.00"),
                ("EYE TEST", "0.00")],
    "flowers": [("HAND BOUQUET ROSE 12", "120.00"), ("ORKID POT", "65.00"), ("GREETING CARD", "5.00"),
                ("DELIVERY KL", "25.00")],
}

KIND_OF = {
    "hardware-01": "hardware", "restoran-01": "food", "kedai-01": "grocery", "stationery-01": "stationery",
    "bakery-01": "grocery", "pharmacy-01": "pharmacy", "petrol-01": "fuel", "furniture-01": "furniture",
    "mart-01": "grocery", "cafe-01": "food", "electrical-01": "electrical", "bookshop-01": "books",
    "nasi-01": "food", "optical-01": "optical", "hardware-02": "hardware", "florist-01": "flowers",
    "a4-invoice-01": "hardware", "photo-restoran-02": "food", "photo-mart-02": "grocery",
    "photo-hardware-03": "hardware", "faded-cafe-02": "food", "faded-mart-03": "grocery",
}

# Per receipt: (date form, time form, how it is captured). Chosen so that every form
# above appears and the captures cover 150-200 dpi scans, fading, skew, A4 and photos.
CAPTURE = {
    "hardware-01": ("dd/mm/yyyy", "24s", "scan200"),
    "restoran-01": ("dd MON yyyy", "12", "scan150"),
    "kedai-01": ("dd-mm-yy", "24", "scan150-skew"),
    "stationery-01": ("dd/mm/yy", "12s", "scan200-skew"),
    "bakery-01": ("dd-MON-yyyy", "24s", "scan150-faded"),
    "pharmacy-01": ("dd.mm.yyyy", "24", "scan200"),
    "petrol-01": ("dd/mm/yyyy", "24s", "scan150"),
    "furniture-01": ("dd-mm-yyyy", "12", "scan200"),
    "mart-01": ("dd-Mon-yy", "24", "scan200-faded"),
    "cafe-01": ("ddmmyyyy", "24s", "scan150-skew"),
    "electrical-01": ("dd/mm/yyyy", "12s", "scan150"),
    "bookshop-01": ("yyyy-mm-dd", "24", "scan200-skew"),
    "nasi-01": ("dd/mm/yy", "12", "scan150-faded"),
    "optical-01": ("dd MON yyyy", "24", "scan200"),
    "hardware-02": ("dd-mm-yy", "24s", "scan150"),
    "florist-01": ("dd-MON-yyyy", "12", "scan200"),
    "a4-invoice-01": ("dd/mm/yyyy", "24", "a4-600"),
    "photo-restoran-02": ("dd/mm/yyyy", "12", "photo"),
    "photo-mart-02": ("dd-mm-yyyy", "24s", "photo"),
    "photo-hardware-03": ("dd MON yyyy", "24", "photo"),
    "faded-cafe-02": ("dd/mm/yy", "24s", "scan200-faded"),
    "faded-mart-03": ("dd.mm.yyyy", "12s", "scan150-faded-skew"),
}


def ringgit(x):
    return f"{q2(x):,.2f}"


def round_5sen(x):
    """Malaysian cash rounding: to the nearest 0.05."""
    return (q2(x) * 20).quantize(Decimal("1"), rounding="ROUND_HALF_UP") / 20


def malaysian(shop, index):
    key = shop["key"]
    date_form, time_form, capture = CAPTURE[key]
    r = Receipt("my-" + key, "us", 100 + index)
    rnd = r.rnd
    y, mo, d = rnd.choice((2017, 2018, 2018, 2019)), rnd.randint(1, 12), rnd.randint(1, 28)
    h, mi, s = rnd.randint(8, 21), rnd.randint(0, 59), rnd.randint(0, 59)
    date_s = DATE_FORMS[date_form](y, mo, d)
    time_s = time_text(h, mi, s, time_form)
    tax_kind = shop["tax"]
    food = KIND_OF[key] == "food"

    if shop["brand"]:
        r.title(shop["brand"])
        # Most print the company's name plainly under the brand; some bracket it (the parser
        # still joins a bracketed name to the brand above: a known miss these samples keep).
        r.center(f"({shop['vendor']})" if shop.get("bracket") or shop["key"] in ("restoran-01", "florist-01") else shop["vendor"])
    else:
        r.title(shop["vendor"])
    r.center(f"CO. REG: {shop['reg']}" if rnd.random() < 0.5 else f"(CO. NO. {shop['reg']})")
    for line in shop["addr"]:
        r.center(line)
    r.center("TEL: " + shop["phone"])
    if tax_kind == "gst":
        r.center("GST ID: " + "00" + "".join(str(rnd.randint(0, 9)) for _ in range(10)))
    elif tax_kind == "sst":
        # A shop's own number when it has one (the shop fixtures' repeat visits), else drawn per receipt.
        sst = "W10-" + "".join(str(rnd.randint(0, 9)) for _ in range(4)) + "-3200" + str(rnd.randint(1000, 9999))
        r.center("SST REG: " + shop.get("sst", sst))
    r.gap(12)
    r.center("TAX INVOICE" if tax_kind == "gst" else ("INVOICE" if tax_kind == "sst" else "CASH BILL"), "bold")
    r.rule()
    number = rnd.choice(("CS", "INV", "OR", "")) + str(rnd.randint(10000, 99999999))
    layout = rnd.choice(("date-line", "date-time-line", "labelled"))
    if layout == "date-line":
        r.lr("Doc No: " + number, "")
        r.lr("Date: " + date_s, time_s)
    elif layout == "date-time-line":
        r.left(number if number[0].isalpha() else "No: " + number)
        r.left(date_s + " " + time_s)
    else:
        r.lr("Invoice No", ": " + number)
        r.lr("Date", ": " + date_s)
        r.lr("Time", ": " + time_s)
    r.lr("Cashier: " + rnd.choice(("AMIRAH", "SITI", "RAJ", "WEI LING", "FARID", "01")),
         ("Table: " + str(rnd.randint(1, 30))) if food else "")
    r.rule()
    r.lr("Item", "Amt(RM)" if rnd.random() < 0.5 else "Amount")
    pool = list(ITEMS[KIND_OF[key]])
    rnd.shuffle(pool)
    rows = []
    for desc, price in pool[: rnd.randint(2, 6)]:
        qty = rnd.choice((1, 1, 1, 2, 3)) if Decimal(price) < 100 else 1
        rows.append((desc, qty, price, None))
    code = "SR" if tax_kind == "gst" else None
    sub = Decimal("0")
    for desc, qty, price, _ in rows:
        unit = Decimal(price)
        amount = q2(unit * qty)
        right = ringgit(amount) + (" " + code if code else "")
        if qty == 1 and rnd.random() < 0.6:
            r.lr(desc[:24], right)
        else:
            r.left(desc)
            r.lr(f"  {qty} x {ringgit(unit)}", right)
        r.items.append({"description": desc, "quantity": qty, "unit_price": dec(unit), "amount": dec(amount)})
        sub += amount
    r.rule()
    if tax_kind == "gst":
        tax = q2(sub * Decimal("0.06"))
        r.lr("Total Qty:", str(sum(q for _, q, _, _ in rows)))
        r.lr("Total Sales (Excluding GST)", ringgit(sub))
        r.lr("Total GST @6%", ringgit(tax))
        tax_label = "GST"
    elif tax_kind == "sst":
        rate = Decimal("0.06") if food or rnd.random() < 0.5 else Decimal("0.10")
        tax = q2(sub * rate)
        r.lr("SUB TOTAL", ringgit(sub))
        tax_label = ("SERVICE TAX " if food else "SST ") + f"{int(rate * 100)}%"
        r.lr(tax_label, ringgit(tax))
    else:
        tax = Decimal("0")
        r.lr("SUB TOTAL", ringgit(sub))
        tax_label = None
    gross = sub + tax
    total = round_5sen(gross)
    adj = total - gross
    r.lr("ROUNDING ADJ" if rnd.random() < 0.6 else "Rounding Adjustment", ("-" if adj < 0 else "") + ringgit(abs(adj)))
    total_label = rnd.choice(("TOTAL", "TOTAL (RM)", "NETT TOTAL", "TOTAL INCL. GST" if tax_kind == "gst" else "GRAND TOTAL"))
    r.lr(total_label, ("RM " if rnd.random() < 0.4 else "") + ringgit(total), "total")
    paid_cash = rnd.random() < 0.75
    meta = {}
    if paid_cash:
        cash = next(v for v in (Decimal(n) for n in (5, 10, 20, 50, 100, 200, 500, 1000, 2000)) if v >= total)
        if rnd.random() < 0.3:
            cash = total
        r.lr("CASH", ringgit(cash))
        r.lr("CHANGE", ringgit(cash - total))
        meta.update(payment="cash", cash_tendered=dec(cash), change=dec(cash - total))
    else:
        last4 = f"{rnd.randint(0, 9999):04d}"
        r.lr("VISA ************" + last4, ringgit(total))
        meta.update(payment="card", card_last4=last4)
    if tax_kind == "gst":
        r.rule()
        r.left("GST Summary    Amount(RM)  Tax(RM)")
        r.lr("SR @ 6%", f"{ringgit(sub)}    {ringgit(tax)}")
    r.gap()
    r.center(rnd.choice(("THANK YOU. PLEASE COME AGAIN.", "Thank you for shopping with us!", "TERIMA KASIH",
                         "Goods sold are not returnable.")))
    if rnd.random() < 0.5:
        r.center("Thank you & have a nice day")
    r.meta.update(
        vendor=shop["vendor"],
        address=", ".join(shop["addr"]),
        phone=shop["phone"],
        date=f"{y}-{mo:02d}-{d:02d}",
        time=f"{h:02d}:{mi:02d}",
        currency="MYR",
        locale="en_MY",
        subtotal=dec(sub),
        total=dec(total),
        receipt_number=number,
        notes=f"Malaysian ({KIND_OF[key]}): date {date_form} '{date_s}', time '{time_s}', "
        f"{tax_label or 'no tax'}, rounding {dec(adj)}; captured as {capture}.",
        **meta,
    )
    if tax_kind != "none":
        r.meta["tax"] = dec(tax)
    return r, capture


def check_my(meta):
    items = sum(Decimal(it["amount"]) for it in meta["line_items"])
    assert items == Decimal(meta["subtotal"]), meta["vendor"]
    gross = Decimal(meta["subtotal"]) + Decimal(meta.get("tax", "0"))
    assert abs(Decimal(meta["total"]) - gross) <= Decimal("0.02"), meta["vendor"]
    assert Decimal(meta["total"]) % Decimal("0.05") == 0, meta["vendor"]
    if "cash_tendered" in meta:
        assert Decimal(meta["cash_tendered"]) - Decimal(meta["change"]) == Decimal(meta["total"])


def scan(paper, rnd, dpi, faded=False, skew=False):
    """A flatbed scan of a till roll at `dpi` (the paper is rendered at ~300 dpi)."""
    if faded:
        paper = ms.make_faded(paper, rnd)
    if skew:
        angle = rnd.choice((-1, 1)) * rnd.uniform(0.8, 2.0)
        paper = paper.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=250)
    scale = dpi / 300
    w, h = paper.size
    img = paper.resize((round(w * scale), round(h * scale)), Image.Resampling.LANCZOS)
    # scanner: a little optical blur, sensor noise, a faint shade across the bed
    img = img.filter(ImageFilter.GaussianBlur(0.5))
    img = ImageChops.multiply(img, ms.gradient(img.size, rnd.uniform(0, 180), 236, 255))
    img = ms.noise(img, rnd, 14)
    return img


def a4_page(paper, rnd):
    """The till roll laid on an A4 flatbed scanned at 600 dpi (4961 x 7016 px)."""
    big = paper.resize((paper.size[0] * 2, paper.size[1] * 2), Image.Resampling.BICUBIC)
    big = big.rotate(0.6, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    page = Image.new("L", (4961, 7016), 252)
    page.paste(big, (380, 300))
    page = ms.noise(page.filter(ImageFilter.GaussianBlur(0.8)), rnd, 10)
    return page


def photo(paper, rnd, n):
    """A phone photo: perspective, shade, blur, then the phone's resolution."""
    angle = (4.0, -6.0, 2.5)[n % 3]
    img = ms.make_photo(paper, rnd, angle=angle)
    # a hand's shadow across one side, stronger than make_photo's own shade
    img = ImageChops.multiply(img, ms.gradient(img.size, (30, 160, 250)[n % 3], 150, 255))
    img = img.filter(ImageFilter.GaussianBlur(0.6 + 0.3 * n))
    w, h = img.size
    return img.resize((round(w * 0.75), round(h * 0.75)), Image.Resampling.LANCZOS)


def render(r, capture):
    """(image, file extension, dpi) for a receipt captured as `capture`."""
    rnd = random.Random(f"{ms.SEED}-{r.name}-{capture}")
    paper = r.render()
    if capture.startswith("scan"):
        dpi = 200 if capture.startswith("scan200") else 150
        return scan(paper, rnd, dpi, faded="faded" in capture, skew="skew" in capture), "jpg", dpi
    if capture == "a4-600":
        return a4_page(paper, rnd), "jpg", 600
    if capture == "photo":
        n = sum(1 for s in SHOPS[: [x["key"] for x in SHOPS].index(r.name[3:])] if CAPTURE[s["key"]][2] == "photo")
        return photo(paper, rnd, n), "jpg", 72
    raise ValueError(capture)


def receipts():
    """[(Receipt, capture)] for every Malaysian sample, in a fixed order."""
    return [malaysian(shop, i) for i, shop in enumerate(SHOPS)]
