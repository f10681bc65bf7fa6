#!/usr/bin/env python3
"""Opens a published report.html in headless Chromium, checks that every section is there and that the
page logs nothing to the console, and saves a full-page PNG for review.

Usage: jobs/render_report.py OUT/dt=YYYY-MM-DD/report.html page.png [--width 1000]
Needs: chromium (apt-get install chromium) and Pillow (pip install pillow) to trim the screenshot."""
import os
import subprocess
import sys
import tempfile

SECTIONS = ["active", "churn", "money", "expiration", "offers", "retention", "outlook", "campaigns", "refunds", "quality"]
CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--enable-logging=stderr", "--v=0"]


def main(page: str, png: str, width: int) -> int:
    url = "file://" + os.path.abspath(page)
    dom = subprocess.run(CHROMIUM + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    console = [line for line in dom.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    missing = [s for s in SECTIONS if f'<section id="{s}">' not in dom.stdout]
    with tempfile.TemporaryDirectory() as scratch:
        raw = os.path.join(scratch, "raw.png")
        shot = subprocess.run(CHROMIUM + [f"--window-size={width},20000", f"--screenshot={raw}", url],
                              capture_output=True, text=True, timeout=120)
        console += [line for line in shot.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
        if not os.path.exists(raw):
            print(f"render_report: chromium wrote no screenshot:\n{shot.stderr[-2000:]}", file=sys.stderr)
            return 1
        from PIL import Image
        image = Image.open(raw).convert("RGB")
        background = image.getpixel((1, image.height - 1))
        bottom = image.height
        pixels = image.load()
        while bottom > 1 and all(pixels[x, bottom - 1] == background for x in range(0, image.width, 4)):
            bottom -= 1
        image.crop((0, 0, image.width, min(image.height, bottom + 24))).save(png, optimize=True)
    print(f"render_report: {png} {width}x{min(20000, bottom + 24)} px, page {os.path.getsize(page)} bytes, "
          f"{len(SECTIONS) - len(missing)}/{len(SECTIONS)} sections, {len(console)} console messages")
    for line in console:
        print("  console: " + line, file=sys.stderr)
    if missing:
        print("render_report: missing sections: " + ", ".join(missing), file=sys.stderr)
    return 1 if missing or console else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    width = 1000
    if "--width" in args:
        index = args.index("--width")
        width = int(args[index + 1])
        del args[index:index + 2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(args[0], args[1], width))
