"""The package's public surface: what `import jaxguide` gives, and what it costs."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import jaxguide


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert sorted(jaxguide.__all__) == sorted(["__version__", *jaxguide._EXPORTS])
    assert len(set(jaxguide.__all__)) == len(jaxguide.__all__)


@pytest.mark.parametrize("name", sorted(jaxguide._EXPORTS))
def test_each_export_comes_from_its_module_and_is_documented(name: str) -> None:
    module = importlib.import_module(f"jaxguide.{jaxguide._EXPORTS[name]}")
    value = getattr(jaxguide, name)
    assert value is getattr(module, name)
    assert name in module.__all__
    if callable(value):
        doc = value.__doc__ or ""
        assert doc.strip(), f"{name} has no docstring"
        assert ">>>" in doc or isinstance(value, type), f"{name} has no example"
    assert name in dir(jaxguide)


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(
        AttributeError, match="module 'jaxguide' has no attribute 'nope'"
    ):
        jaxguide.nope  # noqa: B018


def test_importing_the_package_imports_neither_jax_nor_matplotlib() -> None:
    code = (
        "import sys, jaxguide\n"
        "print(sorted(m for m in ('jax', 'matplotlib') if m in sys.modules))\n"
        "jaxguide.benchmark\n"
        "print('jax' in sys.modules, 'matplotlib' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split("\n")[:2] == ["[]", "True False"]
