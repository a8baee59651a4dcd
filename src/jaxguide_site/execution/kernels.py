"""The kernels the pages execute in: a reader's Python, on Unix sockets.

**A reader's Python.** What a reader takes home must run where the reader
runs it, without the site's toolchain. So ``nox -s docs`` installs what a
reader installs (jaxguide from a wheel, and ipykernel) into a kernel of its
own, ``build/reader-kernel``, names it ``python3`` on ``JUPYTER_PATH``, and
sets ``JAXGUIDE_KERNEL=reader``: the build then refuses to start where the
page kernel could import Sphinx or myst-nb. A page's glued values reach the
prose through :func:`jaxguide.glue`, which writes myst-nb's format itself
when ``JAXGUIDE_GLUE`` is set, as it is here for every kernel this build
starts. (The cells the build alone needs, tagged ``remove-cell``, are left
out of the downloads; :mod:`..notebooks.reader` checks no other cell needs
them.) Elsewhere (``nox -s serve``, the tests' small builds) the kernel is
the build's own Python.

**Unix sockets.** The parallel readers of a build start kernels at the same
moment, and two of them could take the same TCP port
(``zmq.error.ZMQError: Address already in use``, seen once in three
clean-clone test runs; :mod:`.kernel_sockets` says why). myst-nb executes
every notebook through jupyter-cache's ``single_nb_execution``, which calls
nbclient's ``execute`` by its module global ``executenb``; that global is
replaced with one that gives nbclient
:class:`.kernel_sockets.UnixSocketKernelManager`, and the kernel the options
the cache is keyed on (:data:`.cache_key.KERNEL_ARGUMENTS`). Listed in
workarounds.toml.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jupyter_cache.executors.utils as jupyter_cache_executors
import nbclient
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from sphinx.errors import ExtensionError
from sphinx.util import logging

from jaxguide.site import GLUE_ENV

from .cache_key import KERNEL_ARGUMENTS
from .kernel_sockets import UnixSocketKernelManager

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

KERNEL_ENV = "JAXGUIDE_KERNEL"
KERNEL_NAME = "python3"  # every page's kernelspec
KERNEL_RECORD = "kernel.json"
# What a reader's kernel does not have.
TOOLCHAIN = ("sphinx", "myst_nb", "myst_parser", "jupyter_cache", "docutils")
_FIND = (
    "import importlib.util, sys; "
    "print(' '.join(n for n in sys.argv[1:] if importlib.util.find_spec(n)))"
)


def use_unix_sockets() -> None:
    """Make every notebook that myst-nb executes in this process (and in the
    readers it forks) start its kernel on Unix sockets."""
    jupyter_cache_executors.executenb = partial(
        nbclient.execute,
        kernel_manager_class=UnixSocketKernelManager,
        extra_arguments=list(KERNEL_ARGUMENTS),
    )


def kernel_python(name: str = KERNEL_NAME) -> str:
    """The Python a notebook's kernel named ``name`` runs."""
    try:
        spec = KernelSpecManager().get_kernel_spec(name)
    except NoSuchKernel as error:
        msg = f"no Jupyter kernel named {name!r}: install ipykernel"
        raise ExtensionError(msg) from error
    python = str(spec.argv[0])
    # As jupyter_client starts it: a bare "python" is this process's Python.
    bare = {
        "python",
        f"python{sys.version_info[0]}",
        "python{}.{}".format(*sys.version_info),
    }
    return sys.executable if python in bare else python


def toolchain_in(python: str) -> list[str]:
    """The modules of the site's toolchain that ``python`` can import."""
    found = subprocess.run(
        [python, "-c", _FIND, *TOOLCHAIN],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return found.stdout.split()


def _check_reader_kernel(app: Sphinx) -> None:
    """Where ``JAXGUIDE_KERNEL=reader``, refuse a page kernel that has the
    toolchain; in any build that may execute, write down which kernel it was
    (``<doctree folder>/kernel.json``: the site's tests read it)."""
    env: Any = app.env  # myst-nb keeps its configuration on the environment
    executes = getattr(env, "mystnb_config", None)
    if executes is None or executes.execution_mode == "off":
        return
    python = kernel_python()
    present = toolchain_in(python)
    record = {"python": python, "toolchain": present}
    Path(app.doctreedir).mkdir(parents=True, exist_ok=True)
    (Path(app.doctreedir) / KERNEL_RECORD).write_text(json.dumps(record), "utf-8")
    if os.environ.get(KERNEL_ENV) != "reader":
        return
    if present:
        msg = (
            f"{KERNEL_ENV}=reader, but the pages' kernel ({python}) can import "
            f"{', '.join(present)}: a downloaded notebook could need them. "
            "Build with `nox -s docs`, which installs a reader's kernel in "
            "build/reader-kernel, or unset the variable."
        )
        raise ExtensionError(msg)
    logger.info("jaxguide: the pages execute in a reader's Python: %s", python)


def setup(app: Sphinx) -> None:
    # The kernels this build starts inherit it; jaxguide.glue records there.
    os.environ[GLUE_ENV] = "1"
    app.connect("builder-inited", _check_reader_kernel, priority=600)
    if sys.platform != "win32":  # no ipc transport there; Sphinx reads serially anyway
        use_unix_sockets()
