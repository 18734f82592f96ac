#!/usr/bin/env python3
"""Makes the input-format fixtures in Tests/Fixtures/formats/ (run once, the results are committed).

    python3 Tests/Fixtures/tools/make_input_fixtures.py

Needs Pillow (python3-pil), heif-enc (libheif-examples), img2pdf and reportlab
(python3-reportlab); the tests need none of them, only the libraries that read the files.
"""
import io, os, subprocess, sys, tempfile
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "formats")
SAMPLES = os.path.join(ROOT, "SampleReceipts")


def exif6():
    """receipt-exif6.jpg: the 520x140 receipt stored turned 90 degrees anticlockwise, with EXIF
    orientation 6 ("turn 90 degrees clockwise to view"), as a phone stores a portrait photo."""
    im = Image.open(os.path.join(OUT, "receipt.png")).convert("L").transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6
    im.save(os.path.join(OUT, "receipt-exif6.jpg"), quality=90, exif=exif.tobytes())


def two_page_tiff():
    """receipt-2pages.tif: us-hardware-01 cut in two at a gap between lines, one page each
    (1-bit, Group 4): the vendor on page 1, the total on page 2."""
    im = Image.open(os.path.join(SAMPLES, "us-hardware-01.png")).convert("L")
    w, h = im.size
    cut = blank_row_near(im, h // 2)
    pages = [im.crop((0, 0, w, cut)), im.crop((0, cut, w, h))]
    pages = [p.point(lambda v: 255 if v > 128 else 0).convert("1") for p in pages]
    pages[0].save(os.path.join(OUT, "receipt-2pages.tif"), save_all=True, append_images=pages[1:],
                  compression="group4", dpi=(300, 300))


def blank_row_near(im, y0):
    w, h = im.size
    px = im.load()
    for d in range(0, h // 2):
        for y in (y0 + d, y0 - d):
            if 0 < y < h and min(px[x, y] for x in range(0, w, 2)) > 200:
                return y
    return y0


def heic(src, dst, quality=50):
    """A HEIC photo encoded from a PNG/JPEG with heif-enc (x265 inside libheif)."""
    subprocess.run(["heif-enc", "-q", str(quality), "-o", dst, src], check=True)


def heic_turned():
    """receipt-irot.heic: the receipt stored on its side with a HEIF transform (irot) saying
    "turn 90 degrees clockwise", written by heif_orient.c (heif-enc 1.15 cannot set one)."""
    tool = os.path.join(tempfile.mkdtemp(), "heif_orient")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libheif"], check=True, capture_output=True, text=True).stdout.split()
    subprocess.run(["cc", os.path.join(os.path.dirname(__file__), "heif_orient.c"), *flags, "-o", tool], check=True)
    side = os.path.join(os.path.dirname(tool), "side.pgm")
    Image.open(os.path.join(OUT, "receipt.png")).convert("L").transpose(Image.Transpose.ROTATE_90).save(side)
    subprocess.run([tool, side, "6", os.path.join(OUT, "receipt-irot.heic")], check=True)


def main():
    exif6()
    two_page_tiff()
    heic(os.path.join(OUT, "receipt.png"), os.path.join(OUT, "receipt.heic"))
    heic_turned()
    subprocess.run(["heif-enc", "-A", "-q", "60", "-o", os.path.join(OUT, "receipt.avif"), os.path.join(OUT, "receipt.png")], check=True)
    for what in sys.argv[1:]:
        print("unknown:", what)


if __name__ == "__main__":
    main()
