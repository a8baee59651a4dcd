"""Every image a page shows keeps its room before it arrives, and only the
first one is fetched before the reader scrolls to it.

An ``<img>`` without ``width`` and ``height`` is laid out at no height until
its file has arrived: the text under a plot jumps down when it does, and the
browser cannot tell whether the image is on screen. Plots come from executed
outputs (myst-nb writes them as files) and from ``{figure}``; neither says
its size. After Sphinx resolves a page, each local image that gives no size
of its own gets its file's (``sphinx.util.images``: PNG, JPEG, GIF and SVG
headers), and every image but the page's first that sits above its first
section (the one a phone may show at once) loads lazily, as the reader
scrolls near it.

The attributes only describe the file: the theme's ``max-width: 100%`` and
``height: auto`` still shrink a wide plot to a phone's width. Sphinx links an
image that has a size to its full-size file (``html_scaled_image_link``): a
plot, whose output gives the size to show its twice-as-large file at
(:data:`.execution.cache_key.KERNEL_ARGUMENTS`), but not these, whose size
is their file's own.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.images import get_image_size
from sphinx.util.typing import ExtensionMetadata

from .extension import PARALLEL_SAFE

# Sphinx's class for an image not to be wrapped in a link to its file.
NO_SCALED_LINK = "no-scaled-link"


def image_file(app: Sphinx, image: nodes.image) -> Path | None:
    """The source file the HTML builder will publish for ``image``, chosen
    among its candidates as the builder chooses; None for a remote image."""
    candidates: dict[str, str] = image.get("candidates", {})
    if "?" in candidates:
        return None
    if "*" in candidates:
        return Path(app.srcdir) / str(image["uri"])
    for mimetype in app.builder.supported_image_types:
        if mimetype in candidates:
            return Path(app.srcdir) / candidates[mimetype]
    return None


def above_first_section(doctree: nodes.document, image: nodes.image) -> bool:
    """Whether ``image`` comes before the page's first subsection: in the
    introduction under the title, which a phone may show without scrolling."""
    subsection = next(
        (
            section
            for section in doctree.findall(nodes.section)
            if isinstance(section.parent, nodes.section)
        ),
        None,
    )
    if subsection is None:
        return True
    for node in doctree.findall():
        if node is image:
            return True
        if node is subsection:
            return False
    return False


def size_images(app: Sphinx, doctree: nodes.document, _docname: str) -> None:
    if app.builder.format != "html":
        return
    images = list(doctree.findall(nodes.image))
    for index, image in enumerate(images):
        if index > 0 or not above_first_section(doctree, image):
            image["loading"] = "lazy"
        if any(key in image for key in ("width", "height", "scale")):
            continue  # the page chose a size: the builder links it to the file
        path = image_file(app, image)
        size = get_image_size(path) if path is not None and path.is_file() else None
        if size is None:
            continue
        image["width"], image["height"] = (str(length) for length in size)
        image["classes"].append(NO_SCALED_LINK)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("doctree-resolved", size_images)
    return PARALLEL_SAFE
