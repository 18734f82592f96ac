#!/usr/bin/env python3
"""Receipt text lines the project renders itself, in their true case.

    python3 Model/train/render_lines.py                    # 12,000 train + 600 eval
    python3 Model/train/render_lines.py --count 200 --eval-count 0 --out /tmp/try
    python3 Model/train/render_lines.py --currency '$' --name usd --count 4000 --eval-count 0
                                         # only lines that print "$" (a sign the stream lacks)

Why: the SROIE stream labels are all capitals, so a model fine-tuned on them
alone forgets lower case. These lines carry mixed-case receipt text (and
all-caps lines, as receipts print many) with exact ground truth, printed in
receipt-like fonts and degraded like the captures the app sees.

Output (under .build-model/lines/, git-ignored):
    render-train/<n>.png + .gt.txt   (seed SEED)
    render-eval/<n>.png + .gt.txt    (seed SEED+1: other texts, same recipe)
    render-train.list, render-eval.list
    render-*/meta.tsv                id, font, print, capture, cap height, text
    render-eval/summary.json         stock eng's CER on the eval lines (with --stock)

Text: invented by the generator below (syllable-made names, never a real
shop's, and none of SampleReceipts' names either, so the OCR regression on
SampleReceipts/ stays a test of unseen text). Only characters of eng's
unicharset are written, so every line can be trained.

Fonts: Debian packages; `make model` installs them with

    apt-get install -y fonts-dejavu-core fonts-dejavu-extra fonts-liberation \
        fonts-liberation2 fonts-freefont-ttf fonts-inconsolata fonts-noto-mono fonts-hack \
        fonts-courier-prime fonts-firacode fonts-roboto-unhinted fonts-croscore fonts-open-sans \
        fonts-jetbrains-mono fonts-anonymous-pro fonts-go fonts-3270 fonts-league-mono fonts-b612 \
        fonts-mononoki fonts-dotgothic16 fonts-terminus-otb

(`--print-apt` prints that line). A font file that is missing is skipped with
a warning, so a partial install still runs (with less variety).

Degradations (each line: one print x one capture, from its own seeded RNG):
  print   thermal  dotty (203 dpi dot grid), uneven/faded grey ink, streaks,
                   the odd dead print-head element
          plain    solid ink (laser / ink-jet / a good thermal head)
  capture scan     150-200 dpi flatbed: downsampled, slight blur, noise, JPEG
          photo    phone: lower resolution, blur, rotation, perspective,
                   paper curl, uneven shading, noise, stronger JPEG (~1/3)
"""

import argparse
import io
import math
import os
import random
import sys
import time
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stream_lines import DEFAULT_OUT, cer, eng_unicharset, norm_space, write_list  # noqa: E402

SEED = 7031
APT_FONTS = ("fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-liberation2 fonts-freefont-ttf "
             "fonts-inconsolata fonts-noto-mono fonts-hack fonts-courier-prime fonts-firacode "
             "fonts-roboto-unhinted fonts-croscore fonts-open-sans fonts-jetbrains-mono fonts-anonymous-pro "
             "fonts-go fonts-3270 fonts-league-mono fonts-b612 fonts-mononoki "
             "fonts-dotgothic16 fonts-terminus-otb")

# ================================================================ text

MONTHS = "January February March April May June July August September October November December".split()
DAYS = "Mon Tue Wed Thu Fri Sat Sun".split()

# Syllables for invented names (Malay-, Chinese-Malaysian- and English-sounding).
SYL = ("ba be bi bu da di du ga gi ja ju ka ke ki ku la li lu ma me mi mu na ni nu pa pe pi ra ri "
       "ru sa se si su ta ti tu wa ya yu an ang ar as at em en in on un ong ung am ah eh ih "
       "chan chen cheng choo hock hin hup kee kim kok lee leong ling lim loo min ming seng shan "
       "sin soon tan tat teck tong wah wei weng yap yee yik yong").split()
EN_WORDS = ("golden silver royal sunrise harbour harbor maple cedar lotus pearl eagle summit crown "
            "river ocean garden green blue red star sun moon valley hill bay bright fresh happy "
            "lucky grand prime metro city united global classic modern family corner daily").split()
TRADE = ("Hardware Trading Enterprise Bakery Cafe Restaurant Mart Minimarket Supermarket Pharmacy "
         "Stationery Bookstore Electrical Optical Florist Kopitiam Motor Auto Parts Furniture "
         "Textile Hypermarket Grocer Deli Pizza Bistro Noodle House Tea Coffee Wholesale Station "
         "Store Market Kitchen Steamboat Seafood Catering Services Supplies Agency").split()
PREFIX = ("Kedai Restoran Syarikat Perniagaan Pasaraya Farmasi Kedai Runcit Gerai Warung Toko "
          "Stesen Klinik").split()
LEGAL = ["Sdn Bhd", "Sdn. Bhd.", "SDN BHD", "(M) Sdn Bhd", "Bhd", "Ltd", "Ltd.", "Limited", "Inc", "Inc.",
         "LLC", "Pte Ltd", "Co.", "& Co.", "Enterprise", "Trading", "Corp.", "GmbH", "PLC", "S.A."]
PLACES = ("Kuala Lumpur|Petaling Jaya|Shah Alam|Subang Jaya|Klang|Puchong|Seri Kembangan|Cheras|Kajang|"
          "Bangi|Rawang|Ipoh|Johor Bahru|Melaka|Seremban|Georgetown|Kuantan|Kota Bharu|Kuching|"
          "Kota Kinabalu|Batu Caves|Semenyih|Ampang|Sungai Buloh|Nilai|Senawang|Butterworth|"
          "Springfield|Riverside|Fairview|Greenville|Madison|Oakland|Bristol|Leeds|Harrow|Croydon").split("|")
STATES = ["Selangor", "Johor", "Perak", "Pahang", "Kedah", "Sabah", "Sarawak", "Melaka", "W.P. Kuala Lumpur",
          "Negeri Sembilan", "Pulau Pinang", "Terengganu", "Kelantan", "NY", "CA", "TX", "WA", "IL"]
STREET = ["Jalan", "Jln", "Jalan", "Lorong", "Persiaran", "Lebuh", "Street", "Road", "Avenue", "Lane", "Blvd"]
AREA = ["Taman", "Bandar", "Kawasan Perindustrian", "Pusat Perniagaan", "Desa", "Kampung", "Bandar Baru"]
PEOPLE = ("Siti Aminah Farid Raj Wei Ling Kumar Nurul Hafiz Mei Chen Ahmad Lim Tan Wong Kavitha "
          "Jason Sarah Emily David Priya Aisyah Daniel Michael Jenny Anna Ravi Zul").split()

FOOD = ("Nasi Lemak Ayam|Teh Tarik|Roti Canai|Mee Goreng|Kopi O Ais|Nasi Putih|Sayur Campur|Limau Ais|"
        "Char Kuey Teow|Teh O Panas|Milo Ais|Chicken Rice|Wantan Mee|Laksa|Curry Puff|Fried Rice|"
        "Iced Lemon Tea|Latte|Cappuccino|Americano|Mocha|Cheese Cake|Chicken Burger|French Fries|"
        "Fish & Chips|Soup of the Day|Mineral Water|Hot Chocolate|Egg Tart|Dim Sum|Satay (10 pcs)").split("|")
GOODS = ("Beras Wangi 5kg|Minyak Masak 2kg|Gula Pasir 1kg|Telur Gred A 10s|Susu Pekat|Roti Putih|"
         "Sabun Cecair 900ml|Tisu Muka 4x100|Air Mineral 1.5L|Mee Segera 5pkt|Cable Tie 8\" 100pcs|"
         "Wall Plug 6mm|Screw 4x25mm 50pcs|Paint Brush 2\"|Masking Tape 24mm|Hose Clip 1\"|Padlock 40mm|"
         "Sandpaper #240|Extension Socket 3 Way|LED Bulb 9W E27|A4 Paper 80gsm|Ball Pen Blue 0.7|"
         "Stapler No.10|Correction Tape|Glue Stick 21g|Vitamin C 1000mg 30's|Face Mask 50pcs|"
         "Hand Sanitizer 500ml|Plaster Strips|Shampoo 400ml|Toothpaste 150g|Dish Soap 1L|Batteries AA 4pk|"
         "Trash Bags 30s|Kitchen Towel|Frozen Peas 1kg|Whole Milk 2L|Cheddar 200g|Bananas /kg|"
         "Apples Fuji /kg|Orange Juice 1L|Coffee Beans 250g|Greek Yogurt|Bread Flour 1kg|PVC Pipe 1/2\" 10ft|"
         "Silicone Sealant|Wire 2.5mm 90m|MCB 20A|Switch 1 Gang|Notebook A5|File Holder A4").split("|")

CURRENCY = [  # (prefix, suffix, thousands sep, decimal sep)
    ("RM", "", ",", "."), ("RM ", "", ",", "."), ("", "", ",", "."), ("$", "", ",", "."),
    ("£", "", ",", "."), ("€", "", ".", ","), ("", " €", ".", ","), ("S$", "", ",", "."),
    ("USD ", "", ",", "."), ("MYR ", "", ",", "."), ("", "", ",", "."),
]


def currency_table(sign):
    """Amounts with SIGN in front, written close to the figure or after a space."""
    return [(sign, "", ",", "."), (sign, "", ",", "."), (sign + " ", "", ",", ".")]


class Text:
    """Receipt-like lines from one RNG. Each generator returns one line (mixed case)."""

    def __init__(self, rnd, currencies=None):
        self.r = rnd
        self.currencies = currencies or CURRENCY

    # --- pieces
    def name(self, syl=(2, 3)):
        w = "".join(self.r.choice(SYL) for _ in range(self.r.randint(*syl)))
        return w.capitalize()

    def brand(self):
        r = self.r
        k = r.random()
        if k < 0.35:
            return f"{self.name()} {r.choice(TRADE)}"
        if k < 0.6:
            return f"{r.choice(PREFIX)} {self.name()} {self.name()}"
        if k < 0.8:
            return f"{r.choice(EN_WORDS).capitalize()} {r.choice(EN_WORDS).capitalize()} {r.choice(TRADE)}"
        return f"{self.name()} & {self.name()} {r.choice(TRADE)}"

    def amount(self, lo=0.1, hi=500.0):
        r = self.r
        x = math.exp(r.uniform(math.log(lo), math.log(hi)))
        if r.random() < 0.1:
            x *= r.choice((10, 30, 100))
        return Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)

    def money(self, x=None, cur=None, sign=""):
        x = self.amount() if x is None else x
        pre, suf, th, dp = cur or self.cur
        s = f"{x:,.2f}".replace(",", "_").replace(".", dp).replace("_", th)
        return f"{sign}{pre}{s}{suf}"

    def num(self, x):
        pre, suf, th, dp = self.cur
        return f"{x:,.2f}".replace(",", "_").replace(".", dp).replace("_", th)

    def digits(self, n):
        return "".join(str(self.r.randint(0, 9)) for _ in range(n))

    def date(self):
        r = self.r
        y, m, d = r.randint(2014, 2025), r.randint(1, 12), r.randint(1, 28)
        mon = MONTHS[m - 1]
        forms = [
            f"{d:02d}/{m:02d}/{y}", f"{d:02d}/{m:02d}/{y % 100:02d}", f"{d:02d}-{m:02d}-{y % 100:02d}",
            f"{d:02d}-{m:02d}-{y}", f"{y}-{m:02d}-{d:02d}", f"{d:02d} {mon[:3]} {y}", f"{d:02d}-{mon[:3].upper()}-{y}",
            f"{d:02d}-{mon[:3]}-{y % 100:02d}", f"{mon[:3]} {d}, {y}", f"{mon} {d}, {y}", f"{d}.{m}.{y}",
            f"{d:02d}.{m:02d}.{y}", f"{m:02d}/{d:02d}/{y}", f"{d:02d}{m:02d}{y}", f"{y}/{m:02d}/{d:02d}",
            f"{r.choice(DAYS)} {d:02d}/{m:02d}/{y}", f"{d} {mon} {y}", f"{d:02d}/{m:02d}/{y % 100:02d}",
        ]
        return r.choice(forms)

    def time(self):
        r = self.r
        h, mi, s = r.randint(0, 23), r.randint(0, 59), r.randint(0, 59)
        hh, ap = h % 12 or 12, r.choice(("PM", "pm", "P.M.")) if h >= 12 else r.choice(("AM", "am", "A.M."))
        return r.choice((f"{h:02d}:{mi:02d}", f"{h:02d}:{mi:02d}:{s:02d}", f"{hh}:{mi:02d} {ap}",
                         f"{hh:02d}:{mi:02d}:{s:02d} {ap}", f"{hh}:{mi:02d}{ap}", f"{h:02d}{mi:02d}"))

    def gap(self):
        # Columns: the gap between fields varies (one space is a word break,
        # more is a column); the ground truth writes one space for any gap.
        return " " * self.r.choice((1, 1, 2, 2, 3, 4, 5, 6, 8, 10))

    def cols(self, *fields):
        return self.gap().join(f for f in fields if f != "")

    # --- line generators: (weight, function)
    def shop(self):
        r = self.r
        return f"{self.brand()} {r.choice(LEGAL)}" if r.random() < 0.7 else self.brand()

    def shop_bracket(self):
        return f"({self.shop()})"

    def regno(self):
        r = self.r
        reg = f"{r.randint(1000, 1299999)}-{r.choice('ADHKMPTUVWX')}"
        return r.choice((f"Co. Reg. No: {reg}", f"(Co. No. {reg})", f"Company No: {reg}", f"({reg})",
                         f"Co Reg : {reg}", f"ROC No. {reg}", f"Reg No: {self.digits(12)} ({reg})"))

    def taxid(self):
        r = self.r
        return r.choice((f"GST ID: 00{self.digits(10)}", f"GST Reg No : 00{self.digits(10)}",
                         f"GST No. 00{self.digits(10)}", f"SST ID: W10-{self.digits(4)}-{self.digits(8)}",
                         f"SST Reg. No: B16-{self.digits(4)}-{self.digits(8)}", f"VAT No. GB {self.digits(9)}",
                         f"Tax ID: {self.digits(2)}-{self.digits(7)}", f"ABN {self.digits(2)} {self.digits(3)} "
                         f"{self.digits(3)} {self.digits(3)}"))

    def address(self):
        r = self.r
        k = r.random()
        no = r.choice((f"No. {r.randint(1, 250)}", f"No {r.randint(1, 99)}", f"Lot {r.randint(1, 9999)}",
                       f"{r.randint(1, 99)}-{r.randint(1, 3)}", f"{r.randint(1, 40)}-G", f"Unit {r.randint(1, 30)}-"
                       f"{r.randint(1, 20)}", f"{r.randint(1, 9999)}", f"G-{r.randint(1, 40):02d}"))
        if k < 0.4:
            return f"{no}, {r.choice(STREET)} {self.name()} {r.randint(1, 30)}/{r.randint(1, 9)},"
        if k < 0.6:
            return f"{r.choice(AREA)} {self.name()} {self.name()},"
        if k < 0.8:
            return f"{r.randint(10000, 98000)} {r.choice(PLACES)}, {r.choice(STATES)}" + r.choice((".", ".", ""))
        if k < 0.9:
            return f"{r.randint(10, 9999)} {r.choice(EN_WORDS).capitalize()} {r.choice(STREET)} Ste {r.randint(1, 400)}"
        return f"{r.choice(PLACES)}, {r.choice(STATES[-5:])} {r.randint(10000, 99999)}"

    def phone(self):
        r = self.r
        num = r.choice((f"03-{self.digits(4)} {self.digits(4)}", f"0{r.randint(4, 9)}-{self.digits(3)} {self.digits(4)}",
                        f"01{r.randint(0, 9)}-{self.digits(7)}", f"+60 3-{self.digits(4)} {self.digits(4)}",
                        f"({self.digits(3)}) 555-{self.digits(4)}", f"0{self.digits(2)} {self.digits(4)} {self.digits(4)}"))
        lab = r.choice(("Tel:", "Tel :", "TEL:", "Tel.", "Phone:", "Ph:", "H/P:", "Tel No.", "Fax:", "Whatsapp:"))
        s = f"{lab} {num}"
        if r.random() < 0.25:
            s += f"{self.gap()}Fax: 03-{self.digits(4)} {self.digits(4)}"
        return s

    def web(self):
        r = self.r
        dom = (self.name() + r.choice(("", "mart", "store", "cafe"))).lower()
        tld = r.choice((".com.my", ".com", ".my", ".co.uk", ".net"))
        return r.choice((f"www.{dom}{tld}", f"Email: {r.choice(PEOPLE).lower()}@{dom}{tld}",
                         f"sales@{dom}{tld}", f"Visit us at www.{dom}{tld}", f"facebook.com/{dom}"))

    def header(self):
        return self.r.choice(("Tax Invoice", "TAX INVOICE", "Simplified Tax Invoice", "Cash Bill", "CASH BILL",
                              "Receipt", "Official Receipt", "Invoice", "Sales Receipt", "Customer Copy",
                              "*** CUSTOMER COPY ***", "Merchant Copy", "Order Summary", "Bill", "Delivery Order"))

    def docno(self):
        r = self.r
        n = r.choice((f"INV-{self.digits(6)}", f"CS{self.digits(8)}", f"OR{self.digits(6)}", self.digits(r.randint(5, 10)),
                      f"{r.choice('ABCT')}{self.digits(2)}-{self.digits(6)}", f"{self.digits(4)}/{self.digits(4)}"))
        lab = r.choice(("Invoice No:", "Invoice No :", "Receipt #:", "Receipt No.", "Bill No :", "Doc No.:", "Trans:",
                        "Order #", "Inv No.", "Ref:", "Slip No:", "Transaction ID:", "Check #", "No:"))
        return self.cols(lab, n)

    def staff(self):
        r = self.r
        parts = [r.choice((f"Cashier: {r.choice(PEOPLE)}", f"Cashier : {self.digits(2)}", f"Served by: {r.choice(PEOPLE)}",
                           f"Operator: {r.choice(PEOPLE)}", f"Staff: {r.choice(PEOPLE)}", f"Salesperson: {r.choice(PEOPLE)}"))]
        if r.random() < 0.5:
            parts.append(r.choice((f"Table: {r.randint(1, 40)}", f"Pax: {r.randint(1, 8)}", f"Counter {r.randint(1, 9)}",
                                   f"Terminal: T{self.digits(2)}", f"POS: {self.digits(3)}", f"Reg {r.randint(1, 9)}")))
        return self.cols(*parts)

    def datetime(self):
        r = self.r
        k = r.random()
        if k < 0.4:
            return self.cols(f"Date: {self.date()}", self.time())
        if k < 0.6:
            return f"{self.date()} {self.time()}"
        if k < 0.75:
            return self.cols(r.choice(("Date", "Date :", "DATE:", "Dated")), self.date())
        if k < 0.9:
            return self.cols(r.choice(("Time", "Time :", "Time:")), self.time())
        return self.date()

    def colhead(self):
        r = self.r
        return r.choice((self.cols("Item", "Qty", "Price", "Amount"), self.cols("Description", "Qty", "U.Price", "Amt(RM)"),
                         self.cols("Qty", "Desc", "Amt"), self.cols("Code", "Item", "Total"),
                         self.cols("Item", "Amt(RM)"), self.cols("No.", "Product", "Qty", "Disc", "Total"),
                         self.cols("Description", "Amount"), self.cols("Qty", "Item", "Price")))

    def item(self):
        r = self.r
        desc = r.choice(FOOD if r.random() < 0.4 else GOODS)
        q = r.choice((1, 1, 1, 2, 2, 3, 4, 5, 10, 12))
        unit = self.amount(0.5, 120)
        amt = unit * q
        code = r.choice(("", "", "SR", "ZR", "S", "T", "Z", "*", "E"))
        k = r.random()
        if k < 0.25:
            return self.cols(desc, str(q), self.num(unit), self.num(amt), code)
        if k < 0.4:
            return self.cols(f"{q} x {self.num(unit)}", self.num(amt), code)
        if k < 0.5:
            return self.cols(f"{q} @ {self.money(unit)}", self.money(amt))
        if k < 0.6:
            return self.cols(f"{q}", desc, self.num(amt))
        if k < 0.7:
            return self.cols(self.digits(r.choice((8, 12, 13))), desc)
        if k < 0.8:
            return self.cols(desc, self.money(amt), code)
        if k < 0.87:
            return self.cols(f"{q} X {self.money(unit)}", self.num(amt))
        if k < 0.93:
            return self.cols(f"{r.uniform(0.1, 3):.3f} kg @ {self.num(unit)}/kg", self.num(amt))
        return desc

    def totals(self):
        r = self.r
        x = self.amount(1, 3000)
        lab = r.choice(("Subtotal", "Sub Total", "Sub-Total", "SUBTOTAL", "Total", "TOTAL", "Grand Total", "Nett Total",
                        "Total (RM)", "Total Sales (Excl. GST)", "Total Incl. GST", "Total Amount", "Amount Due",
                        "Balance Due", "Total Qty:", "Total Amt Rounded", "TOTAL DUE", "Net Amount", "Items Total"))
        if lab == "Total Qty:":
            return self.cols(lab, str(r.randint(1, 40)))
        return self.cols(lab + r.choice(("", "", ":", " :")), self.money(x))

    def tax(self):
        r = self.r
        x = self.amount(0.05, 200)
        lab = r.choice(("GST 6%", "GST @6%", "Total GST @ 6%", "SST 6%", "SST 10%", "Service Tax 6%", "Service Charge 10%",
                        "Tax 8.625%", "Sales Tax", "VAT 20%", "VAT @ 5%", "GST (6%)", "Svc Chg 10%", "HST 13%", "Tax"))
        return self.cols(lab, self.money(x))

    def rounding(self):
        r = self.r
        adj = Decimal(r.choice(("0.01", "0.02", "0.03", "0.04", "0.00")))
        return self.cols(r.choice(("Rounding Adj", "Rounding Adjustment", "Rounding", "ROUNDING ADJ", "Round Adj :")),
                         ("-" if r.random() < 0.5 and adj else "") + self.num(adj))

    def payment(self):
        r = self.r
        k = r.random()
        if k < 0.3:
            return self.cols(r.choice(("Cash", "CASH", "Cash Tendered", "Tendered", "Paid", "Cash Received")), self.money())
        if k < 0.5:
            return self.cols(r.choice(("Change", "CHANGE", "Change Due", "Balance")), self.money(self.amount(0.05, 80)))
        last4 = self.digits(4)
        card = r.choice(("VISA", "Visa", "MasterCard", "MASTERCARD", "Mastercard", "Amex", "Debit", "Credit Card"))
        mask = r.choice(("****", "************", "XXXX XXXX XXXX ", "xxxx-xxxx-xxxx-", "**** **** **** "))
        if k < 0.8:
            return self.cols(f"{card} {mask}{last4}", self.money())
        return r.choice((f"Approval Code: {self.digits(6)}", f"Auth: {self.digits(6)}", f"Card No: {mask}{last4}",
                         f"Entry Mode: Chip", f"TID: {self.digits(8)} MID: {self.digits(12)}", "Contactless",
                         f"Batch: {self.digits(6)}  Trace: {self.digits(6)}", "Signature not required"))

    def gstsum(self):
        r = self.r
        return r.choice((self.cols("GST Summary", "Amount(RM)", "Tax(RM)"),
                         self.cols(r.choice(("SR @ 6%", "SR", "ZR @ 0%", "ZRL", "S = 6%", "Z = 0%")), self.num(self.amount()),
                                   self.num(self.amount(0.05, 30))),
                         self.cols("Tax Code", "Amount", "Tax")))

    def footer(self):
        r = self.r
        return r.choice((
            "Thank you for shopping with us", "Thank You. Please Come Again.", "Thank you & have a nice day",
            "Thank you, please come again!", "Goods sold are not returnable.", "Goods sold are not refundable & exchangeable",
            "Please keep this receipt for warranty purposes", "Have a nice day!", "Terima kasih, sila datang lagi",
            f"Follow us on Instagram @{self.name().lower()}", "Prices are inclusive of GST", "Price inclusive of 6% SST",
            "Exchange within 7 days with receipt only", "This is a computer generated receipt.",
            "No signature required", "Customer's copy", "*** Thank You ***", "See you again soon :)",
            f"You saved {self.money(self.amount(0.5, 50))} today!", f"Points earned: {r.randint(1, 500)}",
            f"Member: {self.digits(10)}", "Wifi password: " + self.name().lower() + self.digits(4),
            "formerly known as " + self.shop(), "Please retain this receipt for any exchange",
            "items once sold cannot be returned", "Powered by " + self.brand(), "Download our app today",
            "Open daily 10am - 10pm", "Closed on Mondays", "please check your change before leaving",
        ))

    def longnum(self):
        r = self.r
        return r.choice((self.digits(r.randint(10, 20)), f"{self.digits(4)} {self.digits(4)} {self.digits(4)} {self.digits(4)}",
                         f"Ref: {self.digits(14)}", f"*{self.digits(12)}*", f"{self.digits(3)}-{self.digits(7)}-{self.digits(3)}",
                         f"Barcode {self.digits(13)}", f"Serial No: {self.digits(2)}{self.name()[:2].upper()}{self.digits(8)}"))

    def misc(self):
        r = self.r
        return r.choice((f"Discount {self.money(sign='-')}", f"Less: Voucher {self.money()}", f"Deposit {self.money()}",
                         f"Total Items: {r.randint(1, 30)}", f"No. of Items : {r.randint(1, 30)}",
                         f"Member Disc 10% -{self.num(self.amount(0.2, 40))}", f"Delivery Charges {self.money()}",
                         f"Qty: {r.randint(1, 9)}  Unit: pcs", f"Page 1 of {r.randint(1, 3)}", f"Order Type: Take Away",
                         f"Dine In", "Take Out", f"Queue No. {r.randint(1, 400)}", f"Vehicle No: {r.choice('WBJPAK')}"
                         f"{r.choice('ABCDEFG')}{r.choice('ABCDEFGHJK')} {r.randint(1, 9999)}", f"Pump {r.randint(1, 12)}"
                         f"  Primax 95  {r.uniform(5, 60):.2f}L"))

    GENERATORS = [  # (weight, method) -- roughly the mix of lines on a receipt
        (7, "shop"), (1, "shop_bracket"), (4, "regno"), (4, "taxid"), (9, "address"), (5, "phone"), (2, "web"),
        (3, "header"), (5, "docno"), (4, "staff"), (8, "datetime"), (2, "colhead"), (20, "item"), (8, "totals"),
        (4, "tax"), (3, "rounding"), (7, "payment"), (2, "gstsum"), (6, "footer"), (3, "longnum"), (4, "misc"),
    ]

    def line(self):
        """One line, with the case style it is printed in."""
        r = self.r
        self.cur = r.choice(self.currencies)
        names, weights = [g for _, g in self.GENERATORS], [w for w, _ in self.GENERATORS]
        text = getattr(self, r.choices(names, weights)[0])()
        k = r.random()
        if k < 0.33:
            text = text.upper()  # receipts print many lines in capitals
        elif k < 0.38:
            text = text.lower()
        elif k < 0.45:  # Every Word Capitalised (str.title() would write "Customer'S")
            text = " ".join(w[:1].upper() + w[1:] for w in text.split(" "))
        return text


# ================================================================ fonts

FONT_ROOT = "/usr/share/fonts"
# (path under /usr/share/fonts, weight). Monospace / receipt-like fonts weigh
# more: till receipts print in the printer's fixed-pitch font.
FONTS = [
    ("truetype/dejavu/DejaVuSansMono.ttf", 4), ("truetype/dejavu/DejaVuSansMono-Bold.ttf", 3),
    ("truetype/liberation2/LiberationMono-Regular.ttf", 3), ("truetype/liberation2/LiberationMono-Bold.ttf", 3),
    ("truetype/croscore/Cousine-Regular.ttf", 2), ("truetype/croscore/Cousine-Bold.ttf", 2),
    ("truetype/freefont/FreeMono.ttf", 3), ("truetype/freefont/FreeMonoBold.ttf", 3),
    ("opentype/courier-prime/Courier Prime.otf", 2), ("opentype/courier-prime/Courier Prime Bold.otf", 2),
    ("opentype/courier-prime/Courier Prime Sans.otf", 2), ("opentype/courier-prime/Courier Prime Code.otf", 1),
    ("truetype/inconsolata/Inconsolata.otf", 3), ("truetype/noto/NotoSansMono-Regular.ttf", 3),
    ("truetype/noto/NotoSansMono-Bold.ttf", 2), ("truetype/hack/Hack-Regular.ttf", 2), ("truetype/hack/Hack-Bold.ttf", 2),
    ("truetype/firacode/FiraCode-Regular.ttf", 1), ("truetype/firacode/FiraCode-Bold.ttf", 1),
    ("truetype/jetbrains-mono/JetBrainsMono-Regular.ttf", 2), ("truetype/jetbrains-mono/JetBrainsMono-Bold.ttf", 2),
    ("truetype/anonymous-pro/Anonymous Pro.ttf", 2), ("truetype/anonymous-pro/Anonymous Pro B.ttf", 1),
    ("fonts-go/Go-Mono.ttf", 2), ("fonts-go/Go-Mono-Bold.ttf", 1),
    ("truetype/3270/3270-Regular.ttf", 2), ("truetype/3270/3270SemiCondensed-Regular.ttf", 2),
    ("truetype/3270/3270Condensed-Regular.ttf", 1),
    ("opentype/league-mono/LeagueMono-Regular.otf", 1), ("opentype/league-mono/LeagueMono-NarrowRegular.otf", 2),
    ("opentype/league-mono/LeagueMono-CondensedMedium.otf", 2), ("opentype/league-mono/LeagueMono-NarrowBold.otf", 1),
    ("opentype/b612/B612Mono-Regular.otf", 1), ("opentype/b612/B612Mono-Bold.otf", 1),
    ("truetype/mononoki/mononoki-Regular.ttf", 1), ("truetype/mononoki/mononoki-Bold.ttf", 1),
    ("truetype/dotgothic16/DotGothic16-Regular.ttf", 3),  # dot-matrix look
    ("opentype/terminus/terminus-normal.otb", 3), ("opentype/terminus/terminus-bold.otb", 4),  # bitmap, like a thermal head's ROM font
    # sans, narrow and condensed (shop names, A4 invoices, newer POS printers)
    ("truetype/dejavu/DejaVuSans.ttf", 1), ("truetype/dejavu/DejaVuSans-Bold.ttf", 1),
    ("truetype/dejavu/DejaVuSansCondensed.ttf", 2), ("truetype/dejavu/DejaVuSansCondensed-Bold.ttf", 2),
    ("truetype/liberation2/LiberationSans-Regular.ttf", 1), ("truetype/liberation2/LiberationSans-Bold.ttf", 1),
    ("truetype/liberation/LiberationSansNarrow-Regular.ttf", 2), ("truetype/liberation/LiberationSansNarrow-Bold.ttf", 2),
    ("truetype/croscore/Arimo-Regular.ttf", 1), ("truetype/roboto/unhinted/RobotoCondensed-Regular.ttf", 2),
    ("truetype/roboto/unhinted/RobotoCondensed-Bold.ttf", 2), ("truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf", 1),
    ("truetype/open-sans/OpenSans-CondBold.ttf", 1), ("truetype/open-sans/OpenSans-CondLight.ttf", 1),
    ("truetype/open-sans/OpenSans-Regular.ttf", 1), ("truetype/freefont/FreeSans.ttf", 1),
    ("truetype/freefont/FreeSansBold.ttf", 1), ("fonts-go/Go-Regular.ttf", 1), ("opentype/b612/B612-Regular.otf", 1),
    # a little serif (A4 invoices)
    ("truetype/croscore/Tinos-Regular.ttf", 1), ("truetype/dejavu/DejaVuSerifCondensed.ttf", 1),
]


def ink_height(f, ch="H"):
    """Height of a glyph's ink (getbbox gives a bitmap font's whole cell)."""
    im = Image.new("L", (200, 200), 0)
    ImageDraw.Draw(im).text((20, 20), ch, font=f, fill=255)
    b = im.getbbox()
    return b[3] - b[1] if b else 1


class Font:
    """A font file with its glyph coverage, measured once, and a way to draw at a cap height."""

    def __init__(self, rel, weight, charset):
        self.rel, self.weight = rel, weight
        self.path = os.path.join(FONT_ROOT, rel)
        self.bitmap = rel.endswith(".otb")
        self.cache = {}
        probe = self.at(16 if self.bitmap else 64)

        def glyph(c):
            im = Image.new("L", (160, 160), 0)
            ImageDraw.Draw(im).text((32, 32), c, font=probe, fill=255)
            return im.tobytes() if im.getbbox() else None

        # Characters drawn as the font's .notdef box (or as nothing) are missing.
        notdef = glyph("\uffff")
        self.covers = {" "} | {c for c in charset if c != " " and glyph(c) not in (notdef, None)}
        # cap height per unit size, to size fonts by the height of capitals
        self.cap_per_px = None if self.bitmap else ink_height(probe) / 64

    def at(self, size):
        if size not in self.cache:
            self.cache[size] = ImageFont.truetype(self.path, size, layout_engine=ImageFont.Layout.BASIC)
        return self.cache[size]


def load_fonts(charset):
    fonts = []
    for rel, w in FONTS:
        if not os.path.exists(os.path.join(FONT_ROOT, rel)):
            print(f"warning: font {rel} missing (apt-get install {APT_FONTS})", file=sys.stderr)
            continue
        fonts.append(Font(rel, w, charset))
    if not fonts:
        sys.exit("no fonts: run the apt-get line in this script's header")
    return fonts


# ================================================================ rendering + degradation


def draw_line(text, font, cap, rnd):
    """Ink coverage (float32, 0..1) of `text` with capitals `cap` px tall, on a padded canvas.

    Returns (ink, cap_px): cap_px is the drawn cap height (a bitmap font
    snaps to whole multiples of its strike).
    """
    if font.bitmap:
        # A bitmap font is drawn at its strike size and blown up with square
        # pixels, like a thermal head's ROM font (12x24 dots and so on).
        size = rnd.choice((16, 18, 20, 24, 28, 32))
        f = font.at(size)
        hh = ink_height(f)
        scale = max(1, round(cap / hh))
        cap_px = hh * scale
    else:
        f = font.at(max(6, round(cap / font.cap_per_px)))
        scale = 1
        cap_px = cap
    tracking = rnd.choice((0, 0, 0, rnd.uniform(0.02, 0.2))) * f.getlength("0")
    asc, desc = f.getmetrics()
    if tracking:
        width = sum(f.getlength(c) + tracking for c in text)
    else:
        width = f.getlength(text)
    h = asc + desc
    pad = h  # generous: margins, rotation and curl are cut from it
    img = Image.new("L", (int(width + 2 * pad) + 2, h + 2 * pad), 0)
    d = ImageDraw.Draw(img)
    if tracking:
        x = pad
        for c in text:
            d.text((x, pad), c, font=f, fill=255)
            x += f.getlength(c) + tracking
    else:
        d.text((pad, pad), text, font=f, fill=255)
    if scale > 1:
        img = img.resize((img.width * scale, img.height * scale), Image.Resampling.NEAREST)
    # width of the print: condensed / expanded print modes, and double width
    sx = rnd.choice((1.0, 1.0, rnd.uniform(0.85, 1.15), rnd.uniform(0.85, 1.15), 1.0 if rnd.random() < 0.9 else 2.0))
    if abs(sx - 1) > 0.01:
        img = img.resize((max(1, round(img.width * sx)), img.height), Image.Resampling.BILINEAR)
    return np.asarray(img, dtype=np.float32) / 255.0, cap_px


def smooth_field(shape, rnd, cells, lo, hi):
    """Low-frequency random field lo..hi (blotchy ink, uneven light)."""
    h, w = shape
    g = Image.fromarray(np.uint8(np.array([[rnd.random() * 255 for _ in range(cells[1])] for _ in range(cells[0])])))
    f = np.asarray(g.resize((w, h), Image.Resampling.BICUBIC), dtype=np.float32) / 255.0
    return lo + (hi - lo) * f


def thermal(ink, rnd, nrng):
    """Thermal print: dots of the head (~8/mm), uneven and faded grey ink, streaks."""
    h, w = ink.shape
    # dot pitch in px: the render is ~300-450 dpi-like, a 203 dpi head -> ~1.5-2.2 px
    pitch = rnd.uniform(1.4, 2.4)
    small = Image.fromarray(np.uint8(ink * 255)).resize((max(1, round(w / pitch)), max(1, round(h / pitch))),
                                                         Image.Resampling.BOX)
    dots = np.asarray(small, dtype=np.float32) / 255.0
    dots = (dots > rnd.uniform(0.35, 0.6)).astype(np.float32)  # a dot is fired or not
    dots *= 1.0 - rnd.uniform(0, 0.35) * nrng.random(dots.shape, dtype=np.float32)  # per-dot heat
    ink = np.asarray(Image.fromarray(np.uint8(dots * 255)).resize((w, h), Image.Resampling.BILINEAR),
                     dtype=np.float32) / 255.0
    ink = np.asarray(Image.fromarray(np.uint8(ink * 255)).filter(ImageFilter.GaussianBlur(pitch * 0.35)),
                     dtype=np.float32) / 255.0
    # fading, blotchy across the line, and horizontal streaks (uneven feed / heat)
    strength = rnd.uniform(0.55, 1.0) * smooth_field((h, w), rnd, (3, 8), rnd.uniform(0.7, 0.95), 1.0)
    rows = 1.0 - rnd.uniform(0, 0.25) * np.abs(np.sin(np.arange(h) / rnd.uniform(2, 9) + rnd.uniform(0, 6)))
    ink = ink * strength * rows[:, None].astype(np.float32)
    if rnd.random() < 0.15:  # a dead element of the head: a thin white line along the feed
        for _ in range(rnd.randint(1, 2)):
            x = rnd.randrange(w)
            ink[:, x:x + max(1, round(pitch))] *= 0.15
    return np.clip(ink, 0, 1)


def plain(ink, rnd, nrng):
    """Solid ink (laser, ink-jet, a good thermal head), slightly soft."""
    ink = np.asarray(Image.fromarray(np.uint8(ink * 255)).filter(ImageFilter.GaussianBlur(rnd.uniform(0.2, 0.8))),
                     dtype=np.float32) / 255.0
    return np.clip(ink * rnd.uniform(0.8, 1.0), 0, 1)


def on_paper(ink, rnd, nrng):
    """Grey image: paper (off-white, uneven) minus ink."""
    paper = rnd.uniform(200, 252) * smooth_field(ink.shape, rnd, (2, 5), rnd.uniform(0.92, 1.0), 1.0)
    inkv = rnd.uniform(0, 70)
    img = paper - ink * (paper - inkv)
    img += nrng.normal(0, rnd.uniform(0.5, 3), ink.shape).astype(np.float32)  # paper grain
    return img


def resize_f(a, size, resample=Image.Resampling.BILINEAR):
    return np.asarray(Image.fromarray(a.astype(np.float32), mode="F").resize(size, resample), dtype=np.float32)


def jpeg(img, q):
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=q)
    return Image.open(io.BytesIO(buf.getvalue())).convert("L")


def capture_scan(grey, ink, cap_hi, rnd, nrng):
    """150-200 dpi flatbed: to the scan's cap height, slight blur, sensor noise, JPEG."""
    target = rnd.uniform(14, 30)  # cap height of 2-3.5 mm print at 150-200 dpi (a few at 300)
    s = target / cap_hi
    size = (max(1, round(grey.shape[1] * s)), max(1, round(grey.shape[0] * s)))
    g = resize_f(grey, size, Image.Resampling.LANCZOS)
    m = resize_f(ink, size, Image.Resampling.BILINEAR)
    img = Image.fromarray(np.uint8(np.clip(g, 0, 255))).filter(ImageFilter.GaussianBlur(rnd.uniform(0.2, 0.7)))
    a = np.asarray(img, dtype=np.float32) + nrng.normal(0, rnd.uniform(1.5, 6), m.shape).astype(np.float32)
    img = Image.fromarray(np.uint8(np.clip(a, 0, 255)))
    return jpeg(img, rnd.randint(55, 92)), m


def warp_maps(h, w, rnd):
    """Inverse map (output px -> input px) for rotation, perspective and paper curl."""
    ang = math.radians(rnd.uniform(-2.5, 2.5))
    shear = rnd.uniform(-0.06, 0.06)   # perspective seen on one line: a slant
    keyst = rnd.uniform(-0.04, 0.04)   # one end of the line taller than the other
    curl = rnd.uniform(-1, 1) * h * rnd.uniform(0, 0.12)  # bow of a curled receipt
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = w / 2, h / 2
    u, v = (xx - cx) / w, (yy - cy)
    v = v * (1 + keyst * u * 2) - curl * (4 * u * u - 1) / 2
    x = xx - cx + shear * v
    xr = x * math.cos(ang) - v * math.sin(ang) + cx
    yr = x * math.sin(ang) + v * math.cos(ang) + cy
    return xr, yr


def remap(a, xr, yr, fill):
    """Bilinear sampling of a at (xr, yr)."""
    h, w = a.shape
    x0 = np.floor(xr).astype(np.int64)
    y0 = np.floor(yr).astype(np.int64)
    fx, fy = xr - x0, yr - y0
    out = np.zeros_like(xr)
    for dy in (0, 1):
        for dx in (0, 1):
            xi, yi = x0 + dx, y0 + dy
            wgt = (fx if dx else 1 - fx) * (fy if dy else 1 - fy)
            ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
            val = np.where(ok, a[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)], fill)
            out += wgt * val
    return out


def capture_photo(grey, ink, cap_hi, rnd, nrng):
    """Phone photo: geometry, uneven light, lower resolution, blur, noise, JPEG."""
    h, w = grey.shape
    target = rnd.uniform(10, 22)  # phones give fewer px per mm than a scanner
    s = target / cap_hi
    # warp at an intermediate scale (cheaper than at full render size)
    s1 = min(1.0, 2.0 * s)
    size1 = (max(1, round(w * s1)), max(1, round(h * s1)))
    g1 = resize_f(grey, size1, Image.Resampling.LANCZOS)
    m1 = resize_f(ink, size1)
    xr, yr = warp_maps(g1.shape[0], g1.shape[1], rnd)
    bg = float(np.median(g1[:3]))
    g1 = remap(g1, xr, yr, bg)
    m1 = remap(m1, xr, yr, 0.0)
    # light: contrast of a photo (paper is never white), shade across the line
    lo = rnd.uniform(20, 90)
    hi = rnd.uniform(max(150, lo + 90), 235)
    g1 = lo + (hi - lo) * g1 / 255.0
    g1 *= smooth_field(g1.shape, rnd, (2, 3), rnd.uniform(0.7, 0.95), 1.0)
    size = (max(1, round(w * s)), max(1, round(h * s)))
    g = resize_f(g1, size, Image.Resampling.LANCZOS)
    m = resize_f(m1, size)
    return photo_finish(g, m, target, rnd, nrng), m


def photo_finish(g, m, target, rnd, nrng):
    """A photo's last steps on grey `g` at its final size (text `target` px high): hand shake, defocus, noise, JPEG."""
    img = Image.fromarray(np.uint8(np.clip(g, 0, 255)))
    blur = rnd.uniform(0.3, 1.3) * min(1.0, target / 16)  # defocus, in proportion at small sizes
    if rnd.random() < 0.3:  # hand shake: a short horizontal smear
        k = rnd.choice((3, 5))
        row = [0] * (k * (k // 2)) + [1] * k + [0] * (k * (k // 2))
        img = img.filter(ImageFilter.Kernel((k, k), row, scale=k))
    img = img.filter(ImageFilter.GaussianBlur(blur))
    a = np.asarray(img, dtype=np.float32) + nrng.normal(0, rnd.uniform(2, 8), m.shape).astype(np.float32)
    img = Image.fromarray(np.uint8(np.clip(a, 0, 255)))
    return jpeg(img, rnd.randint(35, 85))


def crop_margin(img, m, rnd):
    """Crop to the ink's box plus 8-25 % of its height per side (like the stream crops)."""
    ys, xs = np.nonzero(m > 0.25)
    if len(xs) == 0:
        return None
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    h = y1 - y0
    mg = [round(h * rnd.uniform(0.08, 0.25)) for _ in range(4)]
    return img.crop((max(0, x0 - mg[0]), max(0, y0 - mg[1]), min(img.width, x1 + mg[2]), min(img.height, y1 + mg[3])))


def render_one(text, font, rnd, nrng, photo_share=1 / 3, thermal_share=0.6):
    # Render big (capitals 36-52 px, ~300-450 dpi for 3 mm print), print and
    # degrade at that size, then bring it down to the capture's resolution.
    ink, cap_px = draw_line(text, font, rnd.uniform(36, 52), rnd)
    kind_p = "thermal" if rnd.random() < thermal_share else "plain"
    grey = on_paper(thermal(ink, rnd, nrng) if kind_p == "thermal" else plain(ink, rnd, nrng), rnd, nrng)
    kind_c = "photo" if rnd.random() < photo_share else "scan"
    capture = capture_photo if kind_c == "photo" else capture_scan
    img, m = capture(grey, ink, cap_px, rnd, nrng)
    return crop_margin(img, m, rnd), kind_p, kind_c


# ================================================================ main


def generate(out_dir, count, seed, fonts, charset, log_every=500, photo_share=1 / 3, currency=None):
    os.makedirs(out_dir, exist_ok=True)
    rnd = random.Random(seed)
    gen = Text(random.Random(seed * 7 + 1), currency_table(currency) if currency else None)
    weights = [f.weight for f in fonts]
    rows, paths = [], []
    counts = {}
    skipped = {"charset": 0, "font": 0, "empty": 0}
    if currency:
        skipped["no_currency"] = 0
    t0 = time.time()
    n = 0
    while n < count:
        text = gen.line()
        gt = norm_space(text)
        if currency and currency not in gt:
            skipped["no_currency"] += 1  # a set about one sign keeps only the lines that print it
            continue
        if not gt or any(c not in charset for c in gt):
            skipped["charset"] += 1  # only what eng can write (the generator should make none such)
            continue
        # a font that covers every character of the line
        for _ in range(20):
            font = rnd.choices(fonts, weights)[0]
            if all(c in font.covers for c in text):
                break
        else:
            skipped["font"] += 1
            continue
        lrnd = random.Random(f"{seed}:{n}")
        nrng = np.random.default_rng(seed * 1_000_003 + n)
        img, kp, kc = render_one(text, font, lrnd, nrng, photo_share=photo_share)
        if img is None or img.width < 8 or img.height < 8:
            skipped["empty"] += 1
            continue
        lid = f"{n:05d}"
        path = os.path.join(out_dir, lid + ".png")
        img.save(path)
        with open(os.path.join(out_dir, lid + ".gt.txt"), "w", encoding="utf-8") as f:
            f.write(gt + "\n")
        rows.append((lid, os.path.basename(font.path), kp, kc, str(img.height), gt))
        paths.append(path)
        counts[f"{kp}+{kc}"] = counts.get(f"{kp}+{kc}", 0) + 1
        n += 1
        if n % log_every == 0:
            print(f"{out_dir}: {n}/{count} {time.time() - t0:.0f}s", flush=True)
    with open(os.path.join(out_dir, "meta.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tfont\tprint\tcapture\theight\ttext\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    return paths, rows, counts, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--count", type=int, default=12000, help="training lines")
    ap.add_argument("--eval-count", type=int, default=600, help="held-out lines (other seed)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--photo-share", type=float, default=1 / 3, help="share of lines captured as a phone photo")
    ap.add_argument("--currency", help="print every amount that carries a sign with this one (e.g. '$') and keep "
                    "only the lines that show it: a set that teaches one sign the other lines rarely hold")
    ap.add_argument("--name", default="render", help="output name prefix: NAME-train/, NAME-eval/, NAME-*.list")
    ap.add_argument("--stock", action="store_true", help="read render-eval with stock eng and report its CER")
    ap.add_argument("--print-apt", action="store_true", help="print the apt-get line for the fonts and exit")
    args = ap.parse_args()
    if args.print_apt:
        print("apt-get install -y " + APT_FONTS)
        return 0

    t0 = time.time()
    charset = eng_unicharset()
    fonts = load_fonts(charset)
    print(f"{len(fonts)} fonts", flush=True)
    summary = {"fonts": [os.path.basename(f.path) for f in fonts]}
    for name, count, seed in ((args.name + "-train", args.count, args.seed), (args.name + "-eval", args.eval_count, args.seed + 1)):
        if count <= 0:
            continue
        t1 = time.time()
        paths, rows, counts, skipped = generate(os.path.join(args.out, name), count, seed, fonts, charset,
                                                photo_share=args.photo_share, currency=args.currency)
        write_list(os.path.join(args.out, name + ".list"), paths)
        summary[name] = {"lines": len(paths), "by_degradation": counts, "skipped": skipped,
                         "seconds": round(time.time() - t1, 1),
                         "with_lower_case": sum(1 for r in rows if any(c.islower() for c in r[5]))}
        print(name, summary[name], flush=True)
        if args.stock and name == args.name + "-eval":
            from stream_lines import Tess
            tess = Tess("eng")
            pairs = [(r[5], tess.read(Image.open(p))) for r, p in zip(rows, paths)]
            tess.close()
            summary[name]["stock_cer_nocase"] = round(cer(pairs, fold_case=True), 4)
            summary[name]["stock_cer_case"] = round(cer(pairs), 4)
            for kind in ("scan", "photo"):
                sel = [pr for pr, r in zip(pairs, rows) if r[3] == kind]
                summary[name][f"stock_cer_case_{kind}"] = round(cer(sel), 4)
            with open(os.path.join(args.out, name, "stock-eng.tsv"), "w", encoding="utf-8") as f:
                for r, (gt, rd) in zip(rows, pairs):
                    f.write(f"{r[0]}\t{gt}\t{rd}\n")
    summary["seconds"] = round(time.time() - t0, 1)
    import json
    with open(os.path.join(args.out, args.name + "-summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
