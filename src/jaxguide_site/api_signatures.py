"""Show JAX's type aliases in API signatures as written, not expanded.

With ``from __future__ import annotations`` autodoc evaluates each annotation,
so ``x: ArrayLike`` reaches the page as the eight-member union that
``jax.typing.ArrayLike`` stands for. Sphinx's own remedy,
``autodoc_type_aliases``, breaks on unions such as ``ArrayLike | None``
(sphinx-doc/sphinx#14004), so we put the alias back in the signature text.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import re
from typing import Any

from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

from .extension import PARALLEL_SAFE

# What autodoc writes (with or without the "~" that hides the module) -> what
# the page should show and link to (through intersphinx, once it is set up).
REWRITES = (
    (
        re.compile(
            r"(~?)jax\.jaxlib\._jax\.Array \| ~?numpy\.ndarray \| ~?numpy\.bool"
            r" \| ~?numpy\.number \| bool \| int \| float \| complex"
        ),
        r"\1jax.typing.ArrayLike",
    ),
    (re.compile(r"jax\.jaxlib\._jax\.Array\b"), "jax.Array"),
    (re.compile(r"matplotlib\.axes\._axes\.Axes\b"), "matplotlib.axes.Axes"),
    # plotting types what it reads of a comparison as a private protocol, so
    # that it imports nothing of timing; what a reader passes is a Comparison.
    (re.compile(r"jaxguide\.plotting\._Compared\b"), "jaxguide.timing.Comparison"),
)


def shorten(text: str | None) -> str | None:
    """``text`` with expanded aliases and private module paths written as public.

    >>> shorten("(x: ~jax.jaxlib._jax.Array | ~numpy.ndarray | ~numpy.bool"
    ...         " | ~numpy.number | bool | int | float | complex) -> ~jax.jaxlib._jax.Array")
    '(x: ~jax.typing.ArrayLike) -> ~jax.Array'
    """
    if text is None:
        return None
    for pattern, replacement in REWRITES:
        text = pattern.sub(replacement, text)
    return text


def _process_signature(
    _app: Sphinx,
    _what: str,
    _name: str,
    _obj: object,
    _options: dict[str, Any],
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None]:
    return shorten(signature), shorten(return_annotation)


# Private paths autodoc writes in attribute types -> the documented public name.
PUBLIC_NAMES = {
    "jax.jaxlib._jax.Array": "jax.Array",
    "jaxlib._jax.Array": "jax.Array",
    "matplotlib.axes._axes.Axes": "matplotlib.axes.Axes",
    "jaxguide.plotting._Compared": "jaxguide.timing.Comparison",
}


def _public_target(
    _app: Sphinx, _env: object, node: pending_xref, _contnode: object
) -> None:
    """Point a reference to a private path at its public name, for intersphinx.

    Runs before intersphinx (lower priority number) and returns nothing, so
    intersphinx then resolves the rewritten target.
    """
    target = node.get("reftarget")
    if node.get("refdomain") == "py" and target in PUBLIC_NAMES:
        node["reftarget"] = PUBLIC_NAMES[target]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.autodoc")
    app.connect("autodoc-process-signature", _process_signature)
    app.connect("missing-reference", _public_target, priority=400)
    return PARALLEL_SAFE
