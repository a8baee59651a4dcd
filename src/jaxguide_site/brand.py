"""The site's mark, logo and favicon (an SVG) and its OpenGraph image (a PNG).

The mark is a white lambda on a 2 × 2 grid of JAX-ish colours: an array and a
function. Both files are committed in docs/_static (``html_logo``,
``html_favicon`` and ``ogp_image`` in docs/conf.py); after changing this
module, write them again with ``python -m jaxguide_site.brand`` (the image's
Korean needs a Noto CJK font, ``apt-get install fonts-noto-cjk``).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

STATIC = Path(__file__).resolve().parents[2] / "docs" / "_static"
MARK = "jaxguide-mark.svg"
SOCIAL = "jaxguide-social.png"
SOCIAL_SIZE = (1200, 630)  # what link previews show without cropping

SIZE = 64  # the mark's box
RADIUS = 14
# Each cell's colour, from the top left, row by row.
CELLS = ("#5e97f6", "#26a69a", "#9c6ade", "#3f51b5")
# The lambda: a serif and the long stroke, then the short leg (from a point on
# the long stroke), in the mark's coordinates.
STROKES = (((18, 13), (24, 13), (46, 51)), ((35, 32), (21, 51)))
STROKE_WIDTH = 7
INK = "#1f2937"
FONT_INDEX = 1  # Korean's face in Noto Sans CJK's collection


def mark_svg() -> str:
    """The mark as an SVG document."""
    half = SIZE // 2
    cells = "".join(
        f'<rect x="{half * (i % 2)}" y="{half * (i // 2)}" width="{half}" '
        f'height="{half}" fill="{colour}"/>'
        for i, colour in enumerate(CELLS)
    )
    paths = " ".join(
        "M" + " L".join(f"{x} {y}" for x, y in stroke) for stroke in STROKES
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}">'
        f'<clipPath id="m"><rect width="{SIZE}" height="{SIZE}" rx="{RADIUS}"/>'
        f'</clipPath><g clip-path="url(#m)">{cells}</g>'
        f'<path d="{paths}" fill="none" stroke="#fff" stroke-width="{STROKE_WIDTH}" '
        'stroke-linecap="round" stroke-linejoin="round"/></svg>\n'
    )


def _font(size: int) -> ImageFont.FreeTypeFont:
    """Noto Sans CJK KR, bold (Pillow finds the file among the system's fonts)."""
    return ImageFont.truetype("NotoSansCJK-Bold.ttc", size, index=FONT_INDEX)


def draw_mark(image: Image.Image, left: int, top: int, scale: int) -> None:
    """Draw the mark into ``image`` at (``left``, ``top``), ``scale`` pixels a unit."""
    mask = Image.new("L", (SIZE * scale, SIZE * scale), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, SIZE * scale - 1, SIZE * scale - 1), RADIUS * scale, fill=255
    )
    grid = Image.new("RGB", mask.size)
    draw = ImageDraw.Draw(grid)
    half = SIZE // 2 * scale
    for i, colour in enumerate(CELLS):
        x, y = half * (i % 2), half * (i // 2)
        draw.rectangle((x, y, x + half - 1, y + half - 1), fill=colour)
    width = STROKE_WIDTH * scale
    for stroke in STROKES:
        points = [(x * scale, y * scale) for x, y in stroke]
        draw.line(points, fill="#ffffff", width=width, joint="curve")
        for x, y in points:  # round caps
            draw.ellipse(
                (x - width / 2, y - width / 2, x + width / 2, y + width / 2),
                fill="#ffffff",
            )
    image.paste(grid, (left, top), mask)


def social_image() -> Image.Image:
    """The OpenGraph image: the mark and the guide's name in both languages."""
    image = Image.new("RGB", SOCIAL_SIZE, "#ffffff")
    draw_mark(image, 110, 155, 5)
    draw = ImageDraw.Draw(image)
    draw.text((490, 185), "jaxguide", font=_font(120), fill=INK)
    draw.text((496, 360), "JAX 가이드 · A guide to JAX", font=_font(46), fill="#4b5563")
    draw.rectangle(
        (0, SOCIAL_SIZE[1] - 24, SOCIAL_SIZE[0], SOCIAL_SIZE[1]), fill=CELLS[3]
    )
    # A palette of 64 colours keeps the file small; the edges stay smooth.
    return image.quantize(64)


def main() -> None:
    (STATIC / MARK).write_text(mark_svg(), encoding="utf-8")
    social_image().save(STATIC / SOCIAL, optimize=True)


if __name__ == "__main__":
    main()
