"""A fast check that JAX is installed and works, run before the long build.

Building the site executes every page; when JAX is missing or broken, that
build would fail page after page with the same deep traceback. This check
fails first, in a second or two, with one clear message.

Run it as ``python -m jaxguide.smoke``.
"""

from __future__ import annotations

import importlib
import platform
import sys
from dataclasses import dataclass

__all__ = ["SmokeCheckError", "SmokeReport", "main", "smoke_check"]


class SmokeCheckError(RuntimeError):
    """JAX cannot be imported or cannot run a jitted operation."""


@dataclass(frozen=True)
class SmokeReport:
    """What the smoke check found.

    Attributes:
        jax_version: Version of the ``jax`` package.
        jaxlib_version: Version of the ``jaxlib`` package.
        backend: The default backend, e.g. ``"cpu"`` or ``"gpu"``.
        devices: A readable description of each visible device.
        python_version: The running Python version.
    """

    jax_version: str
    jaxlib_version: str
    backend: str
    devices: tuple[str, ...]
    python_version: str

    def __str__(self) -> str:
        return (
            f"JAX {self.jax_version} (jaxlib {self.jaxlib_version}), "
            f"Python {self.python_version}, backend {self.backend!r}, "
            f"{len(self.devices)} device(s): {', '.join(self.devices)}"
        )


def smoke_check() -> SmokeReport:
    """Import JAX, run one jitted operation and list the devices.

    Returns:
        A :class:`SmokeReport` describing the working installation.

    Raises:
        SmokeCheckError: If ``jax`` cannot be imported, no device is visible,
            or a jitted operation gives a wrong result. The message says what
            failed and how to fix the usual causes.

    Examples:
        >>> report = smoke_check()
        >>> report.backend in {"cpu", "gpu", "tpu"}
        True
        >>> len(report.devices) >= 1
        True
    """
    try:
        jax = importlib.import_module("jax")
        jnp = importlib.import_module("jax.numpy")
        jaxlib = importlib.import_module("jaxlib")
    except ImportError as error:
        msg = (
            f"cannot import JAX ({type(error).__name__}: {error}). Install the "
            "project with its pinned dependencies, e.g. `nox -s docs`, or "
            "`pip install -c .ci/constraints.txt -e .`."
        )
        raise SmokeCheckError(msg) from error

    try:
        devices = jax.devices()
        backend = jax.default_backend()
        result = jax.jit(lambda x: (x * 2.0).sum())(jnp.arange(4.0))
        value = float(result)
    except Exception as error:  # any failure here means JAX cannot run pages
        msg = (
            f"JAX {jax.__version__} imported but cannot run a jitted operation "
            f"({type(error).__name__}: {error}). If a GPU build is installed "
            "without a working driver, force the CPU with JAX_PLATFORMS=cpu."
        )
        raise SmokeCheckError(msg) from error

    if value != 12.0:
        msg = f"jit(lambda x: (2 * x).sum())(arange(4)) gave {value}, expected 12.0"
        raise SmokeCheckError(msg)
    return SmokeReport(
        jax_version=jax.__version__,
        jaxlib_version=jaxlib.__version__,
        backend=backend,
        devices=tuple(f"{d.platform}:{d.id} ({d.device_kind})" for d in devices),
        python_version=platform.python_version(),
    )


def main() -> int:
    """Run :func:`smoke_check` and print one line; return a process exit code."""
    try:
        report = smoke_check()
    except SmokeCheckError as error:
        sys.stderr.write(f"JAX smoke check failed: {error}\n")
        return 1
    sys.stdout.write(f"JAX smoke check passed: {report}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
