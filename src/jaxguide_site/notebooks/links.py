"""Where a downloaded notebook's cross-references point: absolute URLs.

A notebook is read away from the site (Colab, a reader's Jupyter), so a role
such as ``{func}`jax.grad``` or ``{ref}`jit-tracing``` links to the page the
site links it to, resolved as Sphinx resolves it: this project's own pages
(its API reference included) in the published site of the build's language
and version, other projects' through intersphinx (docs/_inventories).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.ext.intersphinx import missing_reference
from sphinx.locale import admonitionlabels

from .markdown import ADMONITIONS, Link


def site_root(app: Sphinx) -> str:
    """The published folder of this build's language and version, as the
    Colab link names it (``<base_url><lang>/<version>/``)."""
    base: str = app.config.html_context.get("jaxguide_base_url", "")
    if base and not base.endswith("/"):
        base += "/"
    return f"{base}{app.config.language}/{app.config.release}/"


class PageLinks:
    """``link(domain, role, target)`` for the roles of one page's prose."""

    def __init__(self, app: Sphinx, docname: str) -> None:
        self.app = app
        self.docname = docname
        self.page = site_root(app) + app.builder.get_target_uri(docname)

    def __call__(self, domain: str, role: str, target: str) -> Link | None:
        env: Any = self.app.env
        node = addnodes.pending_xref(
            "",
            refdomain=domain,
            reftype=role,
            reftarget=target.lstrip("."),
            refexplicit=False,
            refwarn=False,
            refdoc=self.docname,
        )
        if target.startswith("."):
            node["refspecific"] = True
        content = nodes.inline(target, target)
        found = env.get_domain(domain).resolve_xref(
            env, self.docname, self.app.builder, role, node["reftarget"], node, content
        )
        if found is None and domain == "py":
            found = missing_reference(self.app, env, node, content)
        if found is None:
            return None
        uri = found.get("refuri") or f"#{found['refid']}"
        title = found.astext() if domain == "std" else None
        return Link(urljoin(self.page, uri), title)


def admonition_titles() -> dict[str, str]:
    """The admonitions' titles as the page shows them (Sphinx's words in the
    build's language: "참고" for a note in Korean)."""
    return {name: str(admonitionlabels[name]) for name in ADMONITIONS - {"admonition"}}
