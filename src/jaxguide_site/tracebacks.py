"""Executed outputs as a reader reads them: the error first, and no trace of
the machine that built the site.

- **Build paths.** A traceback or a warning names files by where they lay on
  the build machine: ``/home/ci/.nox/docs/lib/python3.11/site-packages/jax/
  _src/core.py``, ``/tmp/ipykernel_3104/488781796.py``. The site shows them
  as a reader can find them: ``jax/_src/core.py`` (relative to the packages
  folder or to the standard library), ``<cell>`` for a notebook cell.
- **Folded tracebacks.** A traceback is shown as its exception, the lines the
  reader needs (``TypeError: …`` and the message under it), wrapped to the
  page's width; the frames above it open on a click (``<details>``). On a
  phone an unfolded traceback took up to ten screens, and its last line was
  cut at the right edge.

Only the site's HTML changes: the downloaded notebook keeps the traceback and
its paths as the kernel printed them.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .extension import PARALLEL_SAFE
from .interface_text.catalog import _

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["exception_of", "without_build_paths"]

_PATH_PART = r"[^\s/:'\"()<>,]+"
# Longest first: a virtual environment's packages sit under its lib/python3.X.
BUILD_PATHS = (
    (re.compile(rf"(?:~|/{_PATH_PART})*/site-packages/"), ""),
    (re.compile(rf"(?:~|/{_PATH_PART})*/lib/python3\.\d+/"), ""),
    (re.compile(r"/tmp/ipykernel_\d+/\d+\.py"), "<cell>"),
)
# Where a frame starts, in IPython's tracebacks and in Python's.
_FRAME = re.compile(r"(File |Cell In\[|Input In \[)")
_EXCEPTION = re.compile(r"[A-Za-z_][\w.]*(: |:?$)")
SHOWN_LINES = 15  # of a long exception message, the rest in the fold


def without_build_paths(text: str) -> str:
    """``text`` with the build machine's file paths made relative.

    >>> print(without_build_paths(
    ...     "File /w/.nox/docs/lib/python3.11/site-packages/jax/_src/core.py:21\\n"
    ...     "File ~/.pyenv/versions/3.11.7/lib/python3.11/asyncio/events.py:80\\n"
    ...     "tracing moving_average at /tmp/ipykernel_31046/488781796.py:1 for jit"))
    File jax/_src/core.py:21
    File asyncio/events.py:80
    tracing moving_average at <cell>:1 for jit
    """
    for pattern, replacement in BUILD_PATHS:
        text = pattern.sub(replacement, text)
    return text


def exception_of(traceback: str) -> str:
    """The exception a traceback ends with, message included: the lines after
    its last frame, from the first that names an exception (its last
    non-empty line if none does).

    >>> print(exception_of('''TypeError        Traceback (most recent call last)
    ... Cell In[12], line 1
    ... ----> 1 jax.jit(moving_average)(signal, 3)
    ...
    ... File jax/_src/core.py:2135, in canonicalize_shape(shape, context)
    ... -> 2135 raise _invalid_shape_error(shape, context)
    ...
    ... TypeError: Shapes must be 1D sequences of concrete values.
    ... If using `jit`, try using `static_argnums`.'''))
    TypeError: Shapes must be 1D sequences of concrete values.
    If using `jit`, try using `static_argnums`.
    """
    lines = traceback.rstrip().splitlines()
    frames = [index for index, line in enumerate(lines) if _FRAME.match(line)]
    after = frames[-1] + 1 if frames else 0
    for index in range(after, len(lines)):
        if _EXCEPTION.match(lines[index]):
            return "\n".join(lines[index:])
    return next((line for line in reversed(lines) if line.strip()), "")


def _fold_opening(exception: str) -> str:
    """The HTML before a traceback's block: ``<details>`` and its summary."""
    # Translated here, not in a module constant: imported once the catalog
    # is loaded, _() gives a plain string in the first build's language.
    hint = _("Full traceback")
    lines = exception.splitlines()
    if len(lines) > SHOWN_LINES:
        lines = [*lines[:SHOWN_LINES], "…"]
    return (
        '<details class="jaxguide-traceback"><summary>'
        f'<code class="jaxguide-exception">{html.escape(chr(10).join(lines))}</code>'
        f'<span class="jaxguide-traceback-hint">{html.escape(str(hint))}</span>'
        "</summary>"
    )


def _is_output(node: nodes.Node) -> bool:
    return isinstance(node, nodes.literal_block) and "output" in node["classes"]


class ReadableOutputs(SphinxPostTransform):
    """Rewrite the build paths of every executed output and fold each
    traceback behind its exception."""

    default_priority = 400
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:  # noqa: ARG002 (Sphinx passes none)
        for block in list(self.document.findall(_is_output)):
            assert isinstance(block, nodes.literal_block)
            text = without_build_paths(block.astext())
            # rawsource equal to the text, or Sphinx would not highlight it.
            block.rawsource = text
            block.children = []
            block.append(nodes.Text(text))
            if "traceback" in block["classes"]:
                opening = _fold_opening(exception_of(text))
                parent = block.parent
                at = parent.index(block)
                parent.insert(at + 1, nodes.raw("", "</details>", format="html"))
                parent.insert(at, nodes.raw("", opening, format="html"))


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_post_transform(ReadableOutputs)
    return PARALLEL_SAFE
