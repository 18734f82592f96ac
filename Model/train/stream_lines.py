#!/usr/bin/env python3
"""Line crops for LSTM fine-tuning, cut from the SROIE training stream.

    OMP_THREAD_LIMIT=1 python3 Model/train/stream_lines.py \
        [--data ../shared/data/sroie-stream] [--out .build-model/lines]

Input: the stream set (img/X*.jpg, box/X*.txt with lines
`x1,y1,x2,y2,x3,y3,x4,y4,text`, key/X*.json with "company"). It is the ONE
set that may be used for training; sroie-dev and wild-dev only measure and are
never read here.

Output (nothing of it goes into the repository):
    OUT/stream/<id>.png        8-bit grey crop of one box, with a margin
    OUT/stream/<id>.gt.txt     its text, case repaired where the picture shows it
    OUT/stream-train.list      crops for training (one png path a line)
    OUT/stream-eval.list       held-out shops (about 10 %), to measure
    OUT/stream/lines.tsv       every box: id, split, status, label, stock reading, gt
    OUT/stream/stock-eng.tsv   cache of stock `eng` readings (reruns skip the OCR)
    OUT/stream/summary.json    the counts and stock eng's CER

Why the case repair: the SROIE labels are ALL CAPITALS even where the paper
prints "Thank you" or "Qty". A model fine-tuned on them alone learns to write
only capitals. Stock `eng` reads the case from the picture well, so per word,
where its reading equals the label's word ignoring case, its case is taken
(see repair_case). A line whose stock reading has no lower-case letter keeps
the label as it is (the paper is upper case); a line that shows lower case but
has a word stock eng could not confirm is left out rather than taught in the
wrong case. Where psm 7 reads nothing at all, a psm 13 (raw line) reading is
the evidence; a line neither reads is left out ("no-reading").

This file also holds the small ctypes binding to libtesseract (`Tess`) and the
helpers (CER, unicharset) that render_lines.py and make_lstmf.py import: one
engine loaded once and fed raw grey bytes is ~50x cheaper than one
`tesseract` process (and model load) per crop.
"""

import argparse
import ctypes
import difflib
import glob
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

from PIL import Image

TESSDATA = "/usr/share/tesseract-ocr/5/tessdata"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_DATA = os.path.join(os.path.dirname(REPO), "shared", "data", "sroie-stream")
DEFAULT_OUT = os.path.join(REPO, ".build-model", "lines")
SEED = 20240611

# ---------------------------------------------------------------- libtesseract via ctypes

PSM_SINGLE_LINE = 7
PSM_RAW_LINE = 13
OEM_DEFAULT = 3


class Tess:
    """One TessBaseAPI (C API of libtesseract.so.5, the same library the app links).

    read(img) OCRs one grey PIL image as a single line (psm 7, like the
    `tesseract X.png - --psm 7` CLI); configs=("lstm.train",) turns it into the
    engine `tesseract X.png X lstm.train` runs, for make_lstmf.py.
    """

    def __init__(self, lang="eng", psm=PSM_SINGLE_LINE, configs=(), tessdata=TESSDATA):
        # Tesseract would use every core via OpenMP: the machine is shared.
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        lib = ctypes.CDLL("libtesseract.so.5")
        vp, cp, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
        lib.TessBaseAPICreate.restype = vp
        lib.TessBaseAPIInit1.argtypes = [vp, cp, cp, i, ctypes.POINTER(cp), i]
        lib.TessBaseAPISetPageSegMode.argtypes = [vp, i]
        lib.TessBaseAPISetVariable.argtypes = [vp, cp, cp]
        lib.TessBaseAPISetImage.argtypes = [vp, cp, i, i, i, i]
        lib.TessBaseAPIGetUTF8Text.argtypes = [vp]
        lib.TessBaseAPIGetUTF8Text.restype = vp  # keep the pointer to free it
        lib.TessDeleteText.argtypes = [vp]
        lib.TessBaseAPIProcessPages.argtypes = [vp, cp, cp, i, vp]
        lib.TessBaseAPISetOutputName.argtypes = [vp, cp]
        lib.TessBaseAPIClear.argtypes = [vp]
        lib.TessBaseAPIEnd.argtypes = [vp]
        lib.TessBaseAPIDelete.argtypes = [vp]
        self.lib = lib
        self.h = lib.TessBaseAPICreate()
        arr = (cp * max(1, len(configs)))(*[c.encode() for c in configs])
        if lib.TessBaseAPIInit1(self.h, tessdata.encode(), lang.encode(), OEM_DEFAULT, arr, len(configs)) != 0:
            raise RuntimeError(f"TessBaseAPIInit1 failed for {lang} in {tessdata}")
        lib.TessBaseAPISetPageSegMode(self.h, psm)
        # "Invalid resolution 0 dpi" and friends, once per crop, would drown the log.
        lib.TessBaseAPISetVariable(self.h, b"debug_file", b"/dev/null")

    def read(self, img):
        img = img.convert("L")
        w, h = img.size
        self.lib.TessBaseAPISetImage(self.h, img.tobytes(), w, h, 1, w)
        p = self.lib.TessBaseAPIGetUTF8Text(self.h)
        if not p:
            return ""
        text = ctypes.string_at(p).decode("utf-8", "replace")
        self.lib.TessDeleteText(p)
        return " ".join(text.split())

    def process_file(self, path, outbase):
        """What the CLI does for `tesseract path outbase <configs>` (e.g. lstm.train)."""
        self.lib.TessBaseAPISetOutputName(self.h, outbase.encode())
        ok = self.lib.TessBaseAPIProcessPages(self.h, path.encode(), None, 0, None)
        self.lib.TessBaseAPIClear(self.h)
        return bool(ok)

    def close(self):
        if self.h:
            self.lib.TessBaseAPIEnd(self.h)
            self.lib.TessBaseAPIDelete(self.h)
            self.h = None


# ---------------------------------------------------------------- helpers shared with the other scripts


def eng_unicharset(traineddata=os.path.join(TESSDATA, "eng.traineddata")):
    """The characters the stock LSTM can write (its lstm-unicharset; "NULL" is the space)."""
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["combine_tessdata", "-u", traineddata, os.path.join(d, "eng.")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(d, "eng.lstm-unicharset"), encoding="utf-8") as f:
            rows = f.read().split("\n")
    chars = {" "}
    for row in rows[1:int(rows[0]) + 1]:
        u = row.split(" ")[0]
        if len(u) == 1:
            chars.add(u)
    return chars


def levenshtein(a, b):
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def cer(pairs, fold_case=False):
    """Character error rate over (truth, reading) pairs: edits / truth characters."""
    edits = chars = 0
    for truth, hyp in pairs:
        if fold_case:
            truth, hyp = truth.upper(), hyp.upper()
        edits += levenshtein(truth, hyp)
        chars += len(truth)
    return edits / max(1, chars)


def norm_space(s):
    # Tesseract writes single spaces; a label's double space or tab can't be learnt.
    return " ".join(s.split())


def write_list(path, items):
    with open(path, "w", encoding="utf-8") as f:
        for it in items:
            f.write(it + "\n")


# ---------------------------------------------------------------- case repair


def letters(s):
    return [c for c in s if c.isalpha()]


# Case patterns a printed word plausibly has: CAPS, lower, Title, CamelCase
# ("HotCakes"). A reading like "CasH" or "bISc" is a misread of one letter's
# case, not evidence about the paper, so such a word is not taken.
PLAUSIBLE = re.compile(r"^(?:[A-Z]+|[a-z]+|[A-Z]?[a-z]+(?:[A-Z][a-z]+)*)$")


def plausible_case(word):
    # each run of letters on its own: "Amt(RM)" is "Amt" + "RM"
    return all(PLAUSIBLE.match(run) for run in re.findall(r"[^\W\d_]+", word))


# Lower-case letters that look like their capitals but smaller: as a word of
# their own ("x" in "2 x 3.50", a tax code "s") they say little about the
# paper's case, so they do not decide whether a line is upper case.
LOOKALIKE = set("cosuvwxz")


def repair_case(label, stock):
    """(gt or None, status). status: upper | repaired | dropped-case.

    The stock reading is aligned with the label character by character
    (ignoring case), so "TAX (RM)" still meets "Tax(RM)" and a misread digit
    elsewhere does not matter. A label word is confirmed when all its letters
    meet letters of the reading, those form a whole run of letters there (not
    "ITEM" inside a misread "lItem") and the case they give is plausible.

    upper:    the reading has no lower-case letter (apart from lone
              look-alikes): the paper prints capitals, the label stays.
    repaired: the reading shows lower case and every word with a letter was
              confirmed: each takes the reading's case.
    dropped-case: lower case on paper, but some word could not be confirmed.
    """
    lower = sum(c.islower() for t in stock.split() for c in t
                if len(letters(t)) >= 2 or c not in LOOKALIKE)
    if lower == 0:
        return label, "upper"
    matcher = difflib.SequenceMatcher(None, label.upper(), stock.upper(), autojunk=False)
    pos = [None] * len(label)  # label index -> stock index
    for a, b, n in matcher.get_matching_blocks():
        for k in range(n):
            pos[a + k] = b + k
    out = list(label)
    for m in re.finditer(r"\S+", label):
        idx = [i for i in range(m.start(), m.end()) if label[i].isalpha()]
        if not idx:
            continue  # digits and signs have no case
        ps = [pos[i] for i in idx]
        if None in ps:
            return None, "dropped-case"
        # the letters met must be a whole run of letters of the reading
        run_ok = ps == list(range(ps[0], ps[0] + len(ps))) or all(
            not stock[j].isalpha() for j in range(ps[0], ps[-1] + 1) if j not in ps)
        before = ps[0] > 0 and stock[ps[0] - 1].isalpha()
        after = ps[-1] + 1 < len(stock) and stock[ps[-1] + 1].isalpha()
        word = "".join(stock[pos[i]] if label[i].isalpha() else label[i] for i in range(m.start(), m.end()))
        if not run_ok or before or after or not plausible_case(word):
            return None, "dropped-case"
        out[m.start():m.end()] = word
    return "".join(out), "repaired"


# ---------------------------------------------------------------- the stream


def shop_key(company):
    """"ACME (M) SDN. BHD." and "ACME (M) SDN BHD" are one shop: case, dots and spacing dropped."""
    return re.sub(r"[^A-Z0-9]", "", company.upper())


def read_boxes(path):
    rows = []
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    for line in text.splitlines():
        parts = line.split(",", 8)  # the text itself may hold commas
        if len(parts) < 9:
            continue
        try:
            xy = [int(float(v)) for v in parts[:8]]
        except ValueError:
            continue
        rows.append((xy, parts[8]))
    return rows


def crop_box(img, xy, rnd):
    """Axis-aligned rectangle of the quad plus a margin of 8-25 % of its height per side.

    The margin varies so that the model does not learn one exact framing; the
    project's own line finder leaves a margin of this order.
    """
    xs, ys = xy[0::2], xy[1::2]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    h = y1 - y0
    if h < 4 or x1 - x0 < 4:
        return None, None
    m = [round(h * rnd.uniform(0.08, 0.25)) for _ in range(4)]
    box = (max(0, x0 - m[0]), max(0, y0 - m[1]), min(img.width, x1 + m[2]), min(img.height, y1 + m[3]))
    return img.crop(box), box


def load_cache(path):
    cache = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for row in f:
                k, _, v = row.rstrip("\n").partition("\t")
                cache[k] = v
    return cache


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--eval-frac", type=float, default=0.10, help="share of shops held out")
    ap.add_argument("--limit", type=int, default=0, help="first N receipts only (a quick try)")
    args = ap.parse_args()

    t0 = time.time()
    outdir = os.path.join(args.out, "stream")
    os.makedirs(outdir, exist_ok=True)
    # A rerun starts clean (but keeps the stock-reading cache): no stale crop
    # of a line that a changed rule now drops.
    for ext in ("png", "gt.txt", "box", "lstmf"):
        for p in glob.glob(os.path.join(outdir, "*." + ext)):
            os.remove(p)
    charset = eng_unicharset()

    receipts = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.data, "box", "*.txt")))
    if args.limit:
        receipts = receipts[: args.limit]

    # Split by shop, not by receipt: 311 of the 386 receipts share a shop with
    # another, and a held-out receipt of a shop seen in training would flatter.
    shop_of = {}
    for r in receipts:
        with open(os.path.join(args.data, "key", r + ".json"), encoding="utf-8") as f:
            shop_of[r] = shop_key(json.load(f).get("company", "")) or r
    shops = sorted(set(shop_of.values()), key=lambda s: hashlib.sha1(f"{SEED}:{s}".encode()).hexdigest())
    held = set(shops[: max(1, round(len(shops) * args.eval_frac))])

    cache_path = os.path.join(outdir, "stock-eng.tsv")
    cache = load_cache(cache_path)
    cache_f = open(cache_path, "a", encoding="utf-8")
    tess = tess13 = None
    records = []
    n_ocr = 0
    for ri, r in enumerate(receipts):
        img = Image.open(os.path.join(args.data, "img", r + ".jpg")).convert("L")
        split = "stream-eval" if shop_of[r] in held else "stream-train"
        rnd = random.Random(f"{SEED}:{r}")
        for li, (xy, raw) in enumerate(read_boxes(os.path.join(args.data, "box", r + ".txt"))):
            lid = f"{r}_{li:03d}"
            label = norm_space(raw)
            crop, box = crop_box(img, xy, rnd)
            rec = dict(id=lid, split=split, label=label, stock="", gt="", status="")
            records.append(rec)
            if crop is None:
                rec["status"] = "bad-box"
                continue
            if not label:
                rec["status"] = "empty"
                continue
            key = f"{lid} {box[0]} {box[1]} {box[2]} {box[3]}"
            if key not in cache:
                if tess is None:
                    tess = Tess("eng")
                cache[key] = tess.read(crop)
                cache_f.write(f"{key}\t{cache[key]}\n")
                n_ocr += 1
            rec["stock"] = stock = cache[key]
            evidence = stock
            if not stock:
                # psm 7's layout analysis found no text (underlined words, a
                # faint digit): read the whole crop as one raw line instead.
                key13 = key + " psm13"
                if key13 not in cache:
                    if tess13 is None:
                        tess13 = Tess("eng", psm=PSM_RAW_LINE)
                    cache[key13] = tess13.read(crop)
                    cache_f.write(f"{key13}\t{cache[key13]}\n")
                    n_ocr += 1
                evidence = cache[key13]
            if any(c not in charset for c in label):
                gt, status = None, "unencodable"  # e.g. '^' or '`': eng has no output for it
            elif not evidence:
                gt, status = None, "no-reading"  # nothing tells the case
            else:
                gt, status = repair_case(label, evidence)
            rec["status"] = status
            if gt is None:
                continue
            rec["gt"] = gt
            png = os.path.join(outdir, lid + ".png")
            crop.save(png, optimize=False)
            with open(os.path.join(outdir, lid + ".gt.txt"), "w", encoding="utf-8") as f:
                f.write(gt + "\n")
        if (ri + 1) % 20 == 0:
            print(f"{ri + 1}/{len(receipts)} receipts, {len(records)} boxes, {n_ocr} stock reads, "
                  f"{time.time() - t0:.0f}s", flush=True)
            cache_f.flush()
    cache_f.close()
    for t in (tess, tess13):
        if t:
            t.close()

    with open(os.path.join(outdir, "lines.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tsplit\tstatus\tlabel\tstock\tgt\n")
        for rec in records:
            f.write("\t".join(rec[k] for k in ("id", "split", "status", "label", "stock", "gt")) + "\n")
    kept = [x for x in records if x["gt"]]
    for split in ("stream-train", "stream-eval"):
        write_list(os.path.join(args.out, split + ".list"),
                   [os.path.join(outdir, x["id"] + ".png") for x in kept if x["split"] == split])

    # Summary: counts per split and status, and stock eng's character error on
    # the crops it could read (case-insensitive against the label; case-
    # sensitive against the repaired gt of the kept lines).
    summary = {"receipts": len(receipts), "shops": len(shops), "held_out_shops": len(held),
               "seconds": round(time.time() - t0, 1), "stock_reads_this_run": n_ocr}
    for split in ("stream-train", "stream-eval", "all"):
        sel = [x for x in records if split == "all" or x["split"] == split]
        counts = {}
        for x in sel:
            counts[x["status"]] = counts.get(x["status"], 0) + 1
        read = [x for x in sel if x["status"] not in ("bad-box", "empty")]  # stock CER: psm 7 reading
        ks = [x for x in sel if x["gt"]]
        summary[split] = {
            "boxes": len(sel),
            "status": counts,
            "kept": len(ks),
            "kept_lower_case": sum(1 for x in ks if any(c.islower() for c in x["gt"])),
            "stock_cer_nocase_all": round(cer([(x["label"], x["stock"]) for x in read], fold_case=True), 4),
            "stock_cer_nocase_kept": round(cer([(x["gt"], x["stock"]) for x in ks], fold_case=True), 4),
            "stock_cer_case_kept": round(cer([(x["gt"], x["stock"]) for x in ks]), 4),
        }
    # Lines whose label holds a character eng cannot write, whatever their case.
    summary["unencodable_chars"] = sorted({c for x in records for c in x["label"] if c not in charset})
    with open(os.path.join(outdir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    sys.exit(main())
