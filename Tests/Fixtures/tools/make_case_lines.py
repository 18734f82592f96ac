#!/usr/bin/env python3
"""Mixed-case receipt lines for the test that the receipt model keeps letter case
(Tests/PipelineTests/ModelCaseTests.swift), in the labelled layout `receipts eval --lines` reads:

    case-lines/img/LNN.png   one rendered line (project-made text, a Debian font, a degradation)
    case-lines/key/LNN.json  {} (no fields: only the lines are judged)
    case-lines/box/LNN.txt   the line's box (the whole image) and its true text

    python3 Tests/Fixtures/tools/make_case_lines.py      # needs Pillow, numpy and the fonts `make model` installs

Made by Model/train/render_lines.py's generator with a seed of its own (none of these lines is a
training line) and kept only where the text has lower case.
"""
import json, os, random, sys
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "Model", "train"))
import render_lines as R  # noqa: E402

SEED, COUNT = 4242, 48
out = os.path.join(here, "..", "case-lines")
for sub in ("img", "key", "box"):
    os.makedirs(os.path.join(out, sub), exist_ok=True)
charset = R.eng_unicharset()
fonts = R.load_fonts(charset)
gen = R.Text(random.Random(SEED * 7 + 1))
rnd = random.Random(SEED)
n = tries = 0
while n < COUNT and tries < 10 * COUNT:
    tries += 1
    text = gen.line()
    gt = R.norm_space(text)
    if not gt or sum(c.islower() for c in gt) < 3 or any(c not in charset for c in gt):
        continue
    font = next((f for f in (rnd.choice(fonts) for _ in range(20)) if all(c in f.covers for c in text)), None)
    if font is None:
        continue
    img, _, _ = R.render_one(text, font, random.Random(f"{SEED}:{n}"), np.random.default_rng(SEED * 1_000_003 + n))
    if img is None or img.width < 8 or img.height < 8:
        continue
    lid = f"L{n:02d}"
    img.save(os.path.join(out, "img", lid + ".png"), optimize=True)
    with open(os.path.join(out, "key", lid + ".json"), "w") as f:
        json.dump({}, f)
    w, h = img.size
    with open(os.path.join(out, "box", lid + ".txt"), "w", encoding="utf-8") as f:
        f.write(f"0,0,{w - 1},0,{w - 1},{h - 1},0,{h - 1},{gt}\n")
    n += 1
print(f"{n} lines in {os.path.normpath(out)}")
