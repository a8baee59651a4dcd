"""Prose-only builds: pages take their outputs from the execution cache and
are never executed (``-D jaxguide_execute=0``, what ``jaxguide-build
--preview`` sets).

A translator who changed a paragraph wants to see it in seconds. The normal
build executes every page the cache does not hold, which on a fresh clone is
every page (minutes). In a preview a page the cache holds shows its outputs;
one it does not hold is shown without them, and its glued figures are left
out, with one line saying so instead of a warning per figure.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from jupyter_cache import get_cache
from myst_nb import sphinx_ as myst_nb_sphinx
from myst_nb.core.execute import NotebookClientBase

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

CONFIG_NAME = "jaxguide_execute"

_create_client = myst_nb_sphinx.create_client


def _cached_outputs_only(
    notebook: Any, source: str, nb_config: Any, logger: Any, *args: Any, **kwargs: Any
) -> Any:
    """myst-nb's own cache client where the cache holds this notebook (it
    merges the cached outputs); otherwise a client that executes nothing."""
    if nb_config.execution_mode == "cache":
        cache = get_cache(nb_config.execution_cache_path)
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            logger.info("preview: not in the execution cache, shown without outputs")
            return NotebookClientBase(notebook, Path(source), nb_config, logger)
    return _create_client(notebook, source, nb_config, logger, *args, **kwargs)


def _apply(_app: Sphinx, config: Config) -> None:
    if config[CONFIG_NAME]:
        return
    myst_nb_sphinx.create_client = _cached_outputs_only
    # A page shown without outputs has no glued figures and no executed
    # download: each would be a warning, burying those a translator needs.
    config.suppress_warnings = [
        *config.suppress_warnings,
        "mystnb.glue",
        "jaxguide.downloads",
    ]


def setup(app: Sphinx) -> None:
    app.add_config_value(CONFIG_NAME, True, "env", bool)
    app.connect("config-inited", _apply)
