#!/usr/bin/env python3
"""Phone-photo-like copies of sroie-stream training crops (the phase-2 experiment, Model/README.md).

    OMP_THREAD_LIMIT=1 python3 Model/train/photo_crops.py --lines .build-model/lines --count 4000 --seed 9108

Reads LINES/stream-train.list (training split only; stream-eval is never read),
picks COUNT crops with a seeded RNG, and writes LINES/streamphoto-train/<n>.png
+ .gt.txt (the crop's label unchanged) and LINES/streamphoto-train.list.

Degradation = render_lines.capture_photo adapted to a real grey crop:
the ink is estimated by a threshold (Otsu) only to measure the text height and
to re-crop after the warp; the crop is padded with its paper grey so rotation /
curl do not cut the text; then warp (rotation, slant, keystone, curl), photo
contrast and uneven light, down to a text height of 10-22 px, optional hand
shake, defocus blur, noise, JPEG 35-85, and a margin of 8-25 % of the height.
"""
import argparse, math, os, random, sys, time
import numpy as np
from PIL import Image

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_lines import resize_f, warp_maps, remap, smooth_field, photo_finish, crop_margin  # noqa: E402
from stream_lines import write_list  # noqa: E402


def otsu(a):
    hist = np.bincount(a.astype(np.uint8).ravel(), minlength=256).astype(np.float64)
    p = hist / hist.sum(); om = np.cumsum(p); mu = np.cumsum(p * np.arange(256)); mt = mu[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sb = (mt * om - mu) ** 2 / (om * (1 - om))
    return int(np.nanargmax(sb))


def degrade(img, rnd, nrng):
    g = np.asarray(img.convert("L"), dtype=np.float32)
    h, w = g.shape
    # a scan's ink can be faint grey: stretch to ink 0-60 on paper 200-250 first
    # (the render recipe's on_paper range), else the photo contrast below makes it vanish
    pi, pp = np.percentile(g, 2), np.median(g)
    if pp - pi < 10:
        return None
    g = np.clip((g - pi) / (pp - pi), 0, 1.05)
    ink_v, paper_v = rnd.uniform(0, 60), rnd.uniform(200, 250)
    g = np.clip(ink_v + (paper_v - ink_v) * g, 0, 255)
    t = otsu(g)
    ink = (g < t).astype(np.float32)
    # text height: the band of rows around the fullest row of the middle third
    # (the crop is centred on its box; neighbours' fragments sit at the edges)
    prof = ink.sum(1)
    c0, c1 = h // 3, max(h // 3 + 1, 2 * h // 3)
    pk = c0 + int(np.argmax(prof[c0:c1]))
    if prof[pk] < 1:
        return None
    lim = max(1, 0.15 * prof[pk])
    a, b = pk, pk
    while a > 0 and prof[a - 1] >= lim:
        a -= 1
    while b < h - 1 and prof[b + 1] >= lim:
        b += 1
    text_h = max(4, b - a + 1)
    target = rnd.uniform(10, 22)
    s = target / text_h
    # paper grey for padding / fill
    bg = float(np.median(np.concatenate([g[0], g[-1], g[:, 0], g[:, -1]])))
    pad = int(math.ceil(0.03 * w + 0.2 * h)) + 2
    g = np.pad(g, ((pad, pad), (pad // 4 + 2, pad // 4 + 2)), constant_values=bg)
    ink = np.pad(ink, ((pad, pad), (pad // 4 + 2, pad // 4 + 2)), constant_values=0)
    H, W = g.shape
    s1 = min(1.0, 2.0 * s)
    size1 = (max(1, round(W * s1)), max(1, round(H * s1)))
    g1 = resize_f(g, size1, Image.Resampling.LANCZOS)
    m1 = resize_f(ink, size1)
    xr, yr = warp_maps(g1.shape[0], g1.shape[1], rnd)
    g1 = remap(g1, xr, yr, bg)
    m1 = remap(m1, xr, yr, 0.0)
    lo = rnd.uniform(20, 90)
    hi = rnd.uniform(max(150, lo + 90), 235)
    g1 = lo + (hi - lo) * np.clip(g1, 0, 255) / 255.0
    g1 *= smooth_field(g1.shape, rnd, (2, 3), rnd.uniform(0.7, 0.95), 1.0)
    size = (max(1, round(W * s)), max(1, round(H * s)))
    gs = resize_f(g1, size, Image.Resampling.LANCZOS)
    m = resize_f(m1, size)
    return crop_margin(photo_finish(gs, m, target, rnd, nrng), m, rnd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", required=True)
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=9108)
    ap.add_argument("--name", default="streamphoto-train")
    args = ap.parse_args()
    src = [x.strip() for x in open(os.path.join(args.lines, "stream-train.list")) if x.strip()]
    pick = random.Random(args.seed).sample(src, min(args.count, len(src)))
    od = os.path.join(args.lines, args.name)
    os.makedirs(od, exist_ok=True)
    paths, skipped, t0 = [], 0, time.time()
    meta = open(os.path.join(od, "meta.tsv"), "w", encoding="utf-8")
    for n, png in enumerate(pick):
        rnd = random.Random(f"{args.seed}:{n}")
        nrng = np.random.default_rng(args.seed * 1_000_003 + n)
        img = degrade(Image.open(png), rnd, nrng)
        if img is None or img.width < 8 or img.height < 8:
            skipped += 1
            continue
        gt = open(png[:-4] + ".gt.txt", encoding="utf-8").read()
        p = os.path.join(od, f"{n:05d}.png")
        img.save(p)
        with open(p[:-4] + ".gt.txt", "w", encoding="utf-8") as f:
            f.write(gt)
        meta.write(f"{n:05d}\t{os.path.basename(png)}\t{img.height}\t{gt.strip()}\n")
        paths.append(p)
        if (n + 1) % 1000 == 0:
            print(f"{n + 1}/{len(pick)} {time.time() - t0:.0f}s", flush=True)
    write_list(os.path.join(args.lines, args.name + ".list"), paths)
    print(f"{len(paths)} written, {skipped} skipped, {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
