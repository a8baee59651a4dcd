"""Command-line pieces the example programs share (not a program itself).

Each example runs as ``python examples/NAME.py``, which puts this folder on
``sys.path``, so ``from _cli import ...`` finds this file.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from matplotlib.backend_bases import FigureCanvasBase

T = TypeVar("T")
FORMATS = FigureCanvasBase.get_supported_filetypes()  # what savefig can write


def checked(
    convert: Callable[[str], T], test: Callable[[T], bool], rule: str
) -> Callable[[str], T]:
    """An argparse type: ``convert(text)``, refused unless it passes ``test``."""

    def parse(text: str) -> T:
        if not test(value := convert(text)):
            msg = f"must be {rule}, got {text!r}"
            raise argparse.ArgumentTypeError(msg)
        return value

    parse.__name__ = getattr(convert, "__name__", "value")  # "invalid int value: ..."
    return parse


class HelpFormatter(
    argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter
):
    """Keep the description's line breaks; show every option's default."""


positive_int = checked(int, lambda n: n >= 1, "at least 1")
positive_float = checked(float, lambda r: 0 < r < math.inf, "a finite number > 0")
figure_path = checked(
    Path, lambda p: p.suffix[1:].lower() in FORMATS, "a .png/.pdf/... file"
)
