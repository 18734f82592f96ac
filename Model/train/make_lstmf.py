#!/usr/bin/env python3
"""`.lstmf` training files (what lstmtraining reads) for every line image.

    OMP_THREAD_LIMIT=1 python3 Model/train/make_lstmf.py [--lines .build-model/lines]

Reads the lists stream_lines.py and render_lines.py wrote
(stream-train/-eval.list, render-train/-eval.list: one PNG a line, each with
its X.gt.txt) and, per line:

  X.box    a WordStr box over the whole image, as tesstrain's
           generate_wordstr_box.py writes it:
               WordStr 0 0 W H 0 #<text>
               \t 0 0 W H 0            (the tab "character" ends the line)
  X.lstmf  what `tesseract X.png X --psm 13 lstm.train` writes

psm 13 (raw line, as tesstrain uses): the line image stored is the WordStr
box, i.e. the whole crop, whatever the psm; psm 7 makes byte-identical files
but first runs layout analysis, and where that finds no text (an underlined
"Tax (RM)", a faint digit) it writes no .lstmf at all.

Then the lists lstmtraining takes (one .lstmf path a line):
  train.txt        stream-train + render-train, shuffled with a fixed seed
  stream-eval.txt  held-out shops of the stream (to measure)
  render-eval.txt  held-out rendered lines (to measure case)

Why in-process: one `tesseract` process per line loads the model again each
time; the C API (through stream_lines.Tess with the lstm.train config) makes
the same files from one loaded engine, much faster. `--cli` runs the real
binary per line instead, and `--check N` makes N files both ways and compares
them byte for byte. (A list file given to the CLI is no shortcut: all its
images write to the one output base, each overwriting the last, so a
3-image list leaves one .lstmf holding the third line only.)
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

from PIL import Image

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stream_lines import DEFAULT_OUT, Tess, write_list  # noqa: E402

SEED = 4242
PSM = 13
LISTS = ("stream-train", "render-train", "stream-eval", "render-eval")


def write_box(png, text):
    w, h = Image.open(png).size
    base = png[:-4]
    with open(base + ".box", "w", encoding="utf-8") as f:
        f.write(f"WordStr 0 0 {w} {h} 0 #{text}\n")
        f.write(f"\t 0 0 {w} {h} 0\n")
    return base


def cli_lstmf(png, outbase):
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    r = subprocess.run(["tesseract", png, outbase, "--psm", str(PSM), "lstm.train"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return r.returncode == 0 and os.path.exists(outbase + ".lstmf")


def read_list(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [x.strip() for x in f if x.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", default=DEFAULT_OUT)
    ap.add_argument("--cli", action="store_true", help="one tesseract process per line (slow, for comparison)")
    ap.add_argument("--force", action="store_true", help="remake .lstmf files that look up to date")
    ap.add_argument("--check", type=int, default=0, help="compare N in-process files with the CLI's")
    ap.add_argument("--extra", action="append", default=[],
                    help="another NAME.list of training lines (repeatable): train-phase2.txt = train.txt's lines + these, shuffled")
    args = ap.parse_args()
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")

    t0 = time.time()
    tess = None if args.cli else Tess("eng", psm=PSM, configs=("lstm.train",))
    made, skipped, failed = {}, 0, []
    out = {}
    for name in LISTS + tuple(args.extra):
        t1 = time.time()
        pngs = read_list(os.path.join(args.lines, name + ".list"))
        ok = []
        for i, png in enumerate(pngs):
            with open(png[:-4] + ".gt.txt", encoding="utf-8") as f:
                text = f.read().strip()
            base = png[:-4]
            lstmf = base + ".lstmf"
            fresh = (os.path.exists(lstmf) and os.path.getsize(lstmf) > 0
                     and os.path.getmtime(lstmf) >= max(os.path.getmtime(png), os.path.getmtime(base + ".gt.txt")))
            if fresh and not args.force:
                skipped += 1
                ok.append(lstmf)
                continue
            write_box(png, text)
            if os.path.exists(lstmf):
                os.remove(lstmf)
            good = cli_lstmf(png, base) if args.cli else tess.process_file(png, base)
            if good and os.path.exists(lstmf) and os.path.getsize(lstmf) > 0:
                ok.append(lstmf)
            else:
                failed.append(png)
            if (i + 1) % 2000 == 0:
                print(f"{name}: {i + 1}/{len(pngs)} {time.time() - t1:.0f}s", flush=True)
        made[name] = {"lines": len(pngs), "lstmf": len(ok), "seconds": round(time.time() - t1, 1)}
        out[name] = ok
        print(name, made[name], flush=True)

    base = out["stream-train"] + out["render-train"]
    train = list(base)
    random.Random(SEED).shuffle(train)
    write_list(os.path.join(args.lines, "train.txt"), train)
    if args.extra:
        p2 = base + [x for e in args.extra for x in out[e]]
        random.Random(SEED + 2).shuffle(p2)
        write_list(os.path.join(args.lines, "train-phase2.txt"), p2)
        print(f"train-phase2.txt {len(p2)}")
    write_list(os.path.join(args.lines, "stream-eval.txt"), out["stream-eval"])
    write_list(os.path.join(args.lines, "render-eval.txt"), out["render-eval"])
    print(f"train.txt {len(train)}, stream-eval.txt {len(out['stream-eval'])}, "
          f"render-eval.txt {len(out['render-eval'])}; up to date already: {skipped}; failed: {len(failed)}")
    for png in failed[:20]:
        print("  failed:", png)

    if args.check and tess:
        # Same bytes as the CLI makes? (Different bytes would mean the in-process
        # engine is set up unlike `tesseract ... lstm.train`.)
        same = 0
        sample = random.Random(SEED).sample(train, min(args.check, len(train)))
        with tempfile.TemporaryDirectory() as d:
            for lstmf in sample:
                png = lstmf[:-6] + ".png"
                tb = os.path.join(d, "x")
                cli_lstmf(png, tb)
                with open(lstmf, "rb") as a, open(tb + ".lstmf", "rb") as b:
                    same += a.read() == b.read()
        print(f"check: {same}/{len(sample)} in-process .lstmf files identical to the CLI's")
    if tess:
        tess.close()
    print(f"total {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
