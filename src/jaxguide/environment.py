"""What executed a page: JAX version, devices, CPU and the 64-bit flag."""

from __future__ import annotations

import os
import platform
import subprocess
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path

import jax
import jax.numpy as jnp

from ._render import Cell, Text, html_line

__all__ = ["EnvironmentReport", "environment_report"]


@dataclass(frozen=True)
class EnvironmentReport:
    """A compact description of the machine and JAX that ran some code.

    Attributes:
        jax_version: Version of ``jax``.
        jaxlib_version: Version of ``jaxlib``.
        python_version: Version of the running Python.
        backend: JAX's default backend: ``"cpu"``, ``"gpu"`` or ``"tpu"``.
        devices: ``(device kind, count)`` for the devices of that backend,
            e.g. ``(("NVIDIA H100 80GB HBM3", 1),)``.
        cpu_model: The host CPU's model name, or ``"unknown CPU"``.
        cpu_cores: Logical CPU cores this process may use.
        x64_enabled: Whether ``jax_enable_x64`` is on (64-bit by default).
    """

    jax_version: str
    jaxlib_version: str
    python_version: str
    backend: str
    devices: tuple[tuple[str, int], ...]
    cpu_model: str
    cpu_cores: int
    x64_enabled: bool

    @property
    def device_summary(self) -> str:
        """The backend and its devices, e.g. ``"cpu: 1 × cpu"``."""
        kinds = ", ".join(f"{count} × {kind}" for kind, count in self.devices)
        return f"{self.backend}: {kinds}"

    def _items(self) -> list[list[Cell]]:
        return [
            [f"JAX {self.jax_version} (jaxlib {self.jaxlib_version})"],
            [f"Python {self.python_version}"],
            [self.device_summary],
            [
                f"{self.cpu_model}, ",
                self._cores(),
            ],
            [f"jax_enable_x64={self.x64_enabled}"],
        ]

    def _caption_cells(self) -> list[Cell]:
        """The short form timing tables carry: JAX version, devices, CPU."""
        return [
            f"JAX {self.jax_version} · {self.device_summary} · {self.cpu_model}, ",
            self._cores(),
        ]

    def _cores(self) -> Text:
        return Text(f"{self.cpu_cores} cores", f"코어 {self.cpu_cores}개")

    def __str__(self) -> str:
        return " · ".join("".join(str(c) for c in item) for item in self._items())

    def _repr_html_(self) -> str:
        return html_line(self._items())

    def _repr_markdown_(self) -> str:
        return str(self)


def environment_report() -> EnvironmentReport:
    """Describe the JAX installation, its devices and the host CPU.

    Returns:
        An :class:`EnvironmentReport`; it prints as one line and renders
        compactly in a notebook, for the top or the foot of a page.

    Examples:
        >>> report = environment_report()
        >>> report.jax_version == jax.__version__
        True
        >>> report.backend in {"cpu", "gpu", "tpu"}
        True
        >>> str(report).startswith(f"JAX {jax.__version__} (jaxlib ")
        True
    """
    devices = Counter(device.device_kind for device in jax.devices())
    return EnvironmentReport(
        jax_version=jax.__version__,
        jaxlib_version=version("jaxlib"),
        python_version=platform.python_version(),
        backend=jax.default_backend(),
        devices=tuple(devices.items()),
        cpu_model=_cpu_model(),
        cpu_cores=_usable_cores(),
        x64_enabled=bool(jax.dtypes.canonicalize_dtype(jnp.float64) == jnp.float64),
    )


def _usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):  # Linux: honours taskset and cpusets
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@cache
def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():  # Linux
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in {"model name", "Model", "cpu model"} and value.strip():
                return value.strip()
    if platform.system() == "Darwin":
        try:
            return subprocess.run(
                ["/usr/sbin/sysctl", "-n", "machdep.cpu.brand_string"],
                capture_output=True,
                text=True,
                check=True,
                timeout=5,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or "unknown CPU"
