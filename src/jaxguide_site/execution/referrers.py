"""An incremental build checks again every reference into the pages it re-reads.

Sphinx re-reads the pages that changed and writes them, but writes a page
that refers to one of them only if it changed too. A label renamed or
removed on a re-read page so leaves a link to it broken without a warning,
and a changed title stays the link's text. The preview, which re-reads only
what changed, would hide a broken reference from a translator, and an
incremental ``nox -s docs`` would pass where a clean build fails.

So each page's references (``{ref}``, ``{numref}``, ``{doc}``) are recorded
as it is read. After reading, the pages that refer to a label or a page that
no longer is what it was (gone, moved, its title changed), or that does not
exist, are written again: Sphinx resolves their references anew and warns
about each broken one. An edit of a page's prose alone rewrites no other page.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from sphinx import addnodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.util import docname_join

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.domains.std import StandardDomain
    from sphinx.environment import BuildEnvironment

REFERENCES = "jaxguide_references"  # env: page -> its (reftype, target)s
LABEL_TYPES = frozenset({"ref", "numref"})
Reference = tuple[str, str]  # ("ref", label) or ("doc", page)


def references(doctree: nodes.document, docname: str) -> set[Reference]:
    """The labels and pages ``doctree`` (the page ``docname``) refers to."""
    found = set()
    for node in doctree.findall(addnodes.pending_xref):
        kind, target = node.get("reftype"), node.get("reftarget", "")
        if node.get("refdomain") != "std" or not target:
            continue
        if kind in LABEL_TYPES:
            found.add(("ref", target))
        elif kind == "doc":
            found.add(("doc", docname_join(node.get("refdoc", docname), target)))
    return found


def defined_as(env: BuildEnvironment, reference: Reference) -> tuple[str, ...] | None:
    """What a link made from ``reference`` shows and points at: the label's
    page, anchor and section title, or the page and its title; None if it
    names nothing."""
    kind, target = reference
    if kind == "doc":
        title = env.titles.get(target)
        return None if title is None else (target, title.astext())
    std: StandardDomain = env.domains.standard_domain
    return std.labels.get(target) or std.anonlabels.get(target)


def _references(env: BuildEnvironment) -> dict[str, set[Reference]]:
    if not hasattr(env, REFERENCES):
        setattr(env, REFERENCES, {})
    found: dict[str, set[Reference]] = getattr(env, REFERENCES)
    return found


class ReferringPages(EnvironmentCollector):
    """Record each page's references; name the pages to write again."""

    def __init__(self) -> None:
        self.before: dict[Reference, tuple[str, ...] | None] = {}

    def clear_doc(self, _app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _references(env).pop(docname, None)

    def merge_other(
        self,
        _app: Sphinx,
        env: BuildEnvironment,
        docnames: AbstractSet[str],
        other: BuildEnvironment,
    ) -> None:
        theirs = _references(other)
        _references(env).update(
            (name, theirs[name]) for name in docnames & theirs.keys()
        )

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        docname = app.env.docname
        _references(app.env)[docname] = references(doctree, docname)

    def get_outdated_docs(
        self,
        _app: Sphinx,
        env: BuildEnvironment,
        _added: AbstractSet[str],
        _changed: AbstractSet[str],
        _removed: AbstractSet[str],
    ) -> list[str]:
        # Nothing is purged yet: each target is what the pages that refer to
        # it showed when they were last written.
        targets = set().union(*_references(env).values())
        self.before = {target: defined_as(env, target) for target in targets}
        return []

    def get_updated_docs(self, _app: Sphinx, env: BuildEnvironment) -> list[str]:
        return sorted(
            docname
            for docname, targets in _references(env).items()
            if any(
                (now := defined_as(env, target)) is None
                or now != self.before.get(target)
                for target in targets
            )
        )


def setup(app: Sphinx) -> None:
    app.add_env_collector(ReferringPages)
