"""Helpers that the jaxguide pages import.

The pages of the guide (Korean and English) execute at build time and import
what they need from here instead of pasting helpers into their cells:

- :mod:`jaxguide.timing`: :func:`benchmark` and :func:`compare`, timing that
  respects async dispatch, with tables and a bar chart;
- :mod:`jaxguide.ratios`: :class:`Ratio`, how two timings compare, with an
  interval, a verdict and the words for it in both languages;
- :mod:`jaxguide.environment`: :func:`environment_report`, what ran the page;
- :mod:`jaxguide.data`: sample data from PRNG keys;
- :mod:`jaxguide.alignment`: NumPy arrays whose memory starts where a page
  needs it to;
- :mod:`jaxguide.processes`: :func:`launch`, several processes of one
  program on this machine, as a cluster's launcher starts them;
- :mod:`jaxguide.profiles`: :func:`op_sources`, where in the code each
  operation of a compiled program (and of a trace) came from;
- :mod:`jaxguide.training`: gradient descent over a pytree and a tiny MLP;
- :mod:`jaxguide.plotting`: the figures the pages repeat;
- :mod:`jaxguide.site`: :func:`glue`, values the prose shows, also where
  myst-nb is not installed.

``import jaxguide`` is cheap: each name is imported from its module on first
use, so ``python -m jaxguide.smoke`` can report a missing JAX cleanly and a
page that never plots never imports matplotlib.
"""

from __future__ import annotations

import importlib
from importlib.metadata import version
from typing import TYPE_CHECKING

__version__ = version("jaxguide")  # from the git tag, when it was installed

_EXPORTS = {
    "Comparison": "timing",
    "Ratio": "ratios",
    "Timing": "timing",
    "benchmark": "timing",
    "compare": "timing",
    "format_duration": "timing",
    "EnvironmentReport": "environment",
    "environment_report": "environment",
    "linear_samples": "data",
    "toy_regression": "data",
    "toy_target": "data",
    "numpy_at_offset": "alignment",
    "launch": "processes",
    "op_sources": "profiles",
    "FitResult": "training",
    "gradient_descent": "training",
    "init_mlp": "training",
    "mlp_forward": "training",
    "mlp_loss": "training",
    "STYLE": "plotting",
    "plot_comparison": "plotting",
    "plot_fit": "plotting",
    "plot_history": "plotting",
    "glue": "site",
}

__all__ = [
    "STYLE",
    "Comparison",
    "EnvironmentReport",
    "FitResult",
    "Ratio",
    "Timing",
    "__version__",
    "benchmark",
    "compare",
    "environment_report",
    "format_duration",
    "glue",
    "gradient_descent",
    "init_mlp",
    "launch",
    "linear_samples",
    "mlp_forward",
    "mlp_loss",
    "numpy_at_offset",
    "op_sources",
    "plot_comparison",
    "plot_fit",
    "plot_history",
    "toy_regression",
    "toy_target",
]

if TYPE_CHECKING:
    from .alignment import numpy_at_offset
    from .data import linear_samples, toy_regression, toy_target
    from .environment import EnvironmentReport, environment_report
    from .plotting import STYLE, plot_comparison, plot_fit, plot_history
    from .processes import launch
    from .profiles import op_sources
    from .ratios import Ratio
    from .site import glue
    from .timing import Comparison, Timing, benchmark, compare, format_duration
    from .training import FitResult, gradient_descent, init_mlp, mlp_forward, mlp_loss


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        msg = f"module 'jaxguide' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
