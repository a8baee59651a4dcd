"""Helpers that the jaxguide pages import.

The pages of the guide (Korean and English) execute at build time and import
what they need from here instead of pasting helpers into their cells. The
build's JAX install check lives in :mod:`jaxguide.smoke` and runs as
``python -m jaxguide.smoke``.
"""

__all__ = ["__version__"]

__version__ = "0.1.0.dev0"
