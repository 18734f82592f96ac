#!/usr/bin/env python3
"""Lists text of the labelled sets that sits in this repository: nothing from ../shared/data may (no labels, boxes,
OCR text of them or shop names; SampleReceipts/ and the tests use receipts the project makes).

Reads every box/ line and key/ value of the sets under DATA (default ../shared/data), and the text files of each
--ocr DIR (what the tool read of those images: `receipts parse --text` output saved one file a receipt), then looks in
every file git tracks for a quoted string, or a whole line, that one of them holds: at least 12 characters without
spaces, with four letters and a digit, or three words and 16 characters. A line made of the words of the built-in
rules and the project's own receipt generators, and numbers ("SUBTOTAL 20.00"), is no find: any receipt prints it. Exit 0: nothing found; 1: the finds, one a line (file:line: text);
2: no DATA.

usage: python3 scripts/check-no-shared-data.py [DATA] [--ocr DIR]...
"""
import glob, json, os, re, subprocess, sys

def norm(s): return re.sub(r"\s+", "", s.upper())

def main(argv):
    args, ocr = [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--ocr": ocr.append(argv[i + 1]); i += 2
        else: args.append(argv[i]); i += 1
    data = args[0] if args else "../shared/data"
    if not os.path.isdir(data):
        print(f"{data}: no such folder (the labelled sets)", file=sys.stderr); return 2
    texts = []
    for f in glob.glob(os.path.join(data, "*", "box", "*.txt")):
        for l in open(f, encoding="utf-8", errors="replace"):
            p = l.rstrip("\n").split(",", 8)
            if len(p) == 9: texts.append(p[8])
    for f in glob.glob(os.path.join(data, "*", "key", "*.json")):
        try: k = json.load(open(f, encoding="utf-8"))
        except ValueError: continue
        for v in k.values():
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, str): texts.append(x)
    for d in ocr:
        for f in glob.glob(os.path.join(d, "*.txt")):
            text = open(f, encoding="utf-8", errors="replace").read()
            # `receipts parse --text` output: only the numbered lines after its "--- OCR text ---" are the read.
            text = text.split("--- OCR text ---", 1)[-1]
            texts += [re.sub(r"^\s*\d+\s+", "", l) for l in text.split("\n")]
    blob = "\n".join(norm(t) for t in texts if len(t) >= 6)
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True).stdout.strip() or "."
    own = ["Sources/ReceiptParser/BuiltInRules.swift", "SampleReceipts/tools", "Model/train/render_lines.py", "Tests/Fixtures/tools"]
    generic = set()
    for o in own:
        for f in ([os.path.join(root, o)] if os.path.isfile(os.path.join(root, o)) else glob.glob(os.path.join(root, o, "*"))):
            if os.path.isfile(f): generic |= set(re.findall(r"[A-Z]+", open(f, encoding="utf-8", errors="replace").read().upper()))
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, cwd=root).stdout.split("\n")
    finds = 0
    for f in files:
        path = os.path.join(root, f)
        if not f or not os.path.isfile(path): continue
        raw = open(path, "rb").read()
        if b"\0" in raw[:4096]: continue  # an image, a model
        lines = raw.decode("utf-8", "replace").split("\n")
        seen = set()
        for n, line in enumerate(lines, 1):
            cands = [line.strip()]
            # A quote may run on to the next line of a comment or a paragraph: read the two as one.
            nxt = re.sub(r"^\s*(///|//|#)?\s*", "", lines[n]) if n < len(lines) else ""
            for q in re.findall(r'"([^"]{6,400})"|“([^”]{6,400})”|`([^`]{6,400})`', line.rstrip() + " " + nxt):
                cands += next(x for x in q if x).split("\\n")
            for c in set(cands) - seen:
                seen.add(c)
                u = norm(c)
                letters, digits, words = sum(ch.isalpha() for ch in u), sum(ch.isdigit() for ch in u), len(c.split())
                if len(u) < 12 or not ((letters >= 4 and digits >= 1) or (words >= 3 and len(u) >= 16)): continue
                if all(w in generic for w in re.findall(r"[A-Z]+", c.upper())) or u not in blob: continue
                print(f"{f}:{n}: {c}"); finds += 1
    return 1 if finds else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
