"""Drawing helpers shared by the games' renderers (Pillow): a canvas, fonts, colours.

A renderer draws the record in two forms: ``ansi`` (text a person reads in a terminal) and
``rgb`` (a picture, built on :class:`Canvas`). ``text_image`` turns any text into a picture,
for renderers that show text panels beside the board.
"""

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

COLOURS = {
    "background": (245, 240, 228),
    "ink": (30, 30, 30),
    "muted": (140, 140, 140),
    "red": (200, 50, 50),
    "blue": (50, 90, 200),
    "green": (40, 150, 70),
    "yellow": (230, 190, 40),
    "orange": (235, 130, 30),
    "purple": (130, 60, 170),
    "brown": (130, 90, 50),
    "black": (20, 20, 20),
    "white": (255, 255, 255),
    "grey": (180, 180, 180),
}


@lru_cache(maxsize=16)
def font(size=14):
    """Pillow's built-in scalable font at ``size`` pixels (no font files needed)."""
    return ImageFont.load_default(size=size)


class Canvas:
    """A picture to draw on; ``array()`` gives the uint8 (H, W, 3) image renderers return."""

    def __init__(self, width, height, background=COLOURS["background"]):
        self.image = Image.new("RGB", (int(width), int(height)), background)
        self.draw = ImageDraw.Draw(self.image)

    def rect(self, x, y, w, h, fill=None, outline=COLOURS["ink"], width=1):
        self.draw.rectangle([x, y, x + w, y + h], fill=fill, outline=outline, width=width)

    def circle(self, cx, cy, r, fill=None, outline=COLOURS["ink"], width=1):
        self.draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=outline, width=width)

    def line(self, points, fill=COLOURS["ink"], width=1):
        self.draw.line(points, fill=fill, width=width)

    def text(self, x, y, text, size=14, fill=COLOURS["ink"], anchor="la"):
        self.draw.text((x, y), str(text), font=font(size), fill=fill, anchor=anchor)

    def array(self):
        return np.asarray(self.image, dtype=np.uint8).copy()


def text_image(text, size=14, padding=8, fill=COLOURS["ink"], background=COLOURS["background"]):
    """``text`` (several lines) drawn as a picture: a uint8 (H, W, 3) array."""
    lines = text.splitlines() or [""]
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    widths = [probe.textlength(line, font=font(size)) for line in lines]
    line_height = int(size * 1.3)
    canvas = Canvas(max(widths) + 2 * padding, line_height * len(lines) + 2 * padding, background)
    for i, line in enumerate(lines):
        canvas.text(padding, padding + i * line_height, line, size=size, fill=fill)
    return canvas.array()
