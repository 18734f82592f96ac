#!/usr/bin/env python3
"""Makes the input-format fixtures in Tests/Fixtures/formats/ and the PDF and HEIC samples in
SampleReceipts/ (run once, the results are committed).

    /usr/bin/python3 Tests/Fixtures/tools/make_input_fixtures.py [NAME ...]

NAME picks some of: exif6 tiff heic irot avif pdf scanpdf encpdf mixedpdf samples (default: all). Needs
Debian's python3-pil, python3-reportlab, img2pdf, libheif-examples (heif-enc), libheif-dev
and a C compiler (heif_orient.c), fonts-dejavu-core; the tests need none of them, only the
libraries that read the files.
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


MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

# An e-receipt as a shop emails it: text drawn as text (a text layer), no image.
BOOKSHOP = [
    "Chapter & Verse Books Ltd",
    "22 Market Row, Bath BA1 1LP",
    "VAT No. GB 284 1937 55",
    "12/10/2024 16:41   Receipt 20931",
    "",
    "Atlas of Remote Islands     18.99",
    "Notebook A6  2 x 4.50        9.00",
    "Leather Bookmark             4.50",
    "",
    "TOTAL                 GBP 32.49",
    "VAT 20% included             0.75",
    "VISA ************4471       32.49",
    "",
    "Thank you for shopping with us",
]


def text_pdf(path, pages, width_mm=80):
    """A PDF whose lines are real text (reportlab, DejaVu Sans Mono 9 pt), one list of lines per page."""
    from reportlab.pdfgen import canvas
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.lib.units import mm
    pdfmetrics.registerFont(TTFont("DejaVuMono", MONO))
    height = max(len(p) for p in pages) * 13 + 40
    c = canvas.Canvas(path, pagesize=(width_mm * mm, height), invariant=1, pageCompression=1)
    for lines in pages:
        c.setFont("DejaVuMono", 9)
        y = height - 24
        for line in lines:
            c.drawString(10, y, line)
            y -= 13
        c.showPage()
    c.save()


def scanned_pdf(src, dst, dpi=300):
    """An image-only PDF (a scanner's output): the image at `dpi`, no text."""
    im = Image.open(src).convert("L")
    tmp = os.path.join(tempfile.mkdtemp(), "page.png")
    im.save(tmp, dpi=(dpi, dpi))
    subprocess.run(["img2pdf", "--output", dst, tmp], check=True)


def main():
    todo = set(sys.argv[1:]) or {"exif6", "tiff", "heic", "irot", "avif", "pdf", "scanpdf", "encpdf", "mixedpdf", "samples"}
    if "exif6" in todo: exif6()
    if "tiff" in todo: two_page_tiff()
    if "heic" in todo: heic(os.path.join(OUT, "receipt.png"), os.path.join(OUT, "receipt.heic"))
    if "irot" in todo: heic_turned()
    if "avif" in todo:
        subprocess.run(["heif-enc", "-A", "-q", "60", "-o", os.path.join(OUT, "receipt.avif"), os.path.join(OUT, "receipt.png")], check=True)
    if "pdf" in todo:
        text_pdf(os.path.join(OUT, "receipt-text.pdf"), [BOOKSHOP])
        text_pdf(os.path.join(OUT, "receipt-text-2pages.pdf"), [BOOKSHOP[:9], BOOKSHOP[9:]])
    if "scanpdf" in todo:
        scanned_pdf(os.path.join(SAMPLES, "us-hardware-01.png"), os.path.join(OUT, "receipt-scan.pdf"))
    if "encpdf" in todo:
        # A PDF that needs a password to open (python3-pikepdf, which img2pdf brings).
        import pikepdf
        with pikepdf.open(os.path.join(OUT, "receipt-text.pdf")) as pdf:
            pdf.save(os.path.join(OUT, "receipt-encrypted.pdf"), encryption=pikepdf.Encryption(user="secret", owner="secret"))
    if "mixedpdf" in todo:
        # Page 1 with a text layer, page 2 a scan (the small receipt.png at 300 dpi).
        import pikepdf
        scan = os.path.join(tempfile.mkdtemp(), "scan.pdf")
        scanned_pdf(os.path.join(OUT, "receipt.png"), scan)
        with pikepdf.open(os.path.join(OUT, "receipt-text.pdf")) as pdf, pikepdf.open(scan) as other:
            pdf.pages.extend(other.pages)
            pdf.save(os.path.join(OUT, "receipt-mixed.pdf"))
    if "samples" in todo:
        text_pdf(os.path.join(SAMPLES, "pdf-uk-bookshop-01.pdf"), [BOOKSHOP])
        heic(os.path.join(SAMPLES, "photo-us-cafe-01.jpg"), os.path.join(SAMPLES, "heic-us-cafe-01.heic"), quality=40)


if __name__ == "__main__":
    main()
