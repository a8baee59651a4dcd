"""The kernels the pages execute in: a reader's Python, on Unix sockets.

**A reader's Python.** What a reader takes home must run where the reader
runs it, without the site's toolchain. So ``nox -s docs`` installs what a
reader installs (jaxguide from a wheel, and ipykernel) into a kernel of its
own, ``build/reader-kernel``, names it ``python3`` on ``JUPYTER_PATH``, and
sets ``JAXGUIDE_KERNEL=reader``: the build then refuses to start where the
page kernel could import Sphinx or myst-nb. A page's glued values reach the
prose through :func:`jaxguide.glue`, which writes myst-nb's format itself
when ``JAXGUIDE_GLUE`` is set, as it is for every kernel this build starts
(and only there). (The cells the build alone needs, tagged ``remove-cell``,
are left out of the downloads; :mod:`..notebooks.reader` checks no other
cell needs them.) Elsewhere (``nox -s serve``, the tests' small builds) the
kernel is the build's own Python, and executes into a cache folder of its
own (:mod:`.cache`): a reader's build never takes its outputs.

**Unix sockets.** The parallel readers of a build start kernels at the same
moment, and two of them could take the same TCP port
(``zmq.error.ZMQError: Address already in use``, seen once in three
clean-clone test runs; :mod:`.kernel_sockets` says why). myst-nb executes
every notebook through jupyter-cache's ``single_nb_execution``, which calls
nbclient's ``execute`` by its module global ``executenb``; that global is
replaced with :func:`execute`, which gives nbclient
:class:`.kernel_sockets.UnixSocketKernelManager`, and the kernel the options
the cache is keyed on (:data:`.cache_key.KERNEL_ARGUMENTS`) and
``JAXGUIDE_GLUE``. Listed in workarounds.toml.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jupyter_cache.executors.utils as jupyter_cache_executors
from jupyter_client.kernelspec import NoSuchKernel
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from sphinx.errors import ExtensionError
from sphinx.util import logging

from jaxguide.site import GLUE_ENV

from .cache_key import KERNEL_ARGUMENTS, KERNEL_ENV
from .kernel_sockets import UnixSocketKernelManager
from .preview import CONFIG_NAME as EXECUTES

if TYPE_CHECKING:
    from nbformat import NotebookNode
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

KERNEL_NAME = "python3"  # every page's kernelspec
KERNEL_RECORD = "kernel.json"
# What a reader's kernel does not have.
TOOLCHAIN = ("sphinx", "myst_nb", "myst_parser", "jupyter_cache", "docutils")
_FIND = (
    "import importlib.util, sys; "
    "print(' '.join(n for n in sys.argv[1:] if importlib.util.find_spec(n)))"
)


def execute(nb: NotebookNode, cwd: str | None = None, **options: Any) -> NotebookNode:
    """nbclient's ``execute``, in a page kernel: on Unix sockets (no ipc
    transport on Windows, where Sphinx reads serially anyway), with the
    cache's kernel options, and told that glued values are recorded."""
    if sys.platform != "win32":
        options["kernel_manager_class"] = UnixSocketKernelManager
    client = NotebookClient(
        nb,
        resources={"metadata": {"path": cwd}} if cwd else {},
        extra_arguments=list(KERNEL_ARGUMENTS),
        **options,
    )
    return client.execute(env={**os.environ, GLUE_ENV: "1"})


def use_page_kernels() -> None:
    """Make every notebook that myst-nb executes in this process (and in the
    readers it forks) start its kernel through :func:`execute`."""
    jupyter_cache_executors.executenb = execute


def kernel_python(name: str = KERNEL_NAME) -> str:
    """The Python a notebook's kernel named ``name`` runs, as jupyter_client
    starts it (a bare ``python`` in the spec is this process's Python)."""
    try:
        command = KernelManager(kernel_name=name).format_kernel_cmd()
    except NoSuchKernel as error:
        msg = f"no Jupyter kernel named {name!r}: install ipykernel"
        raise ExtensionError(msg) from error
    return str(command[0])


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


def check_reader_kernel() -> tuple[str, list[str]]:
    """The pages' kernel's Python and the toolchain modules it can import;
    where ``JAXGUIDE_KERNEL=reader``, refuse a kernel that has any."""
    python = kernel_python()
    present = toolchain_in(python)
    if present and os.environ.get(KERNEL_ENV) == "reader":
        msg = (
            f"{KERNEL_ENV}=reader, but the pages' kernel ({python}) can import "
            f"{', '.join(present)}: a downloaded notebook could need them. "
            "Build with `nox -s docs`, which installs a reader's kernel in "
            "build/reader-kernel, or unset the variable."
        )
        raise ExtensionError(msg)
    return python, present


def _check_reader_kernel(app: Sphinx) -> None:
    """In any build that may execute, check the kernel as
    :func:`check_reader_kernel` does and write down which it was
    (``<doctree folder>/kernel.json``: the site's tests read it)."""
    nb_config = getattr(app.env, "mystnb_config", None)  # set by myst-nb just before
    if nb_config is None or nb_config.execution_mode == "off":
        return
    if not app.config[EXECUTES]:
        return  # a preview: it shows what the cache holds, and starts no kernel
    python, present = check_reader_kernel()
    record = {"python": python, "toolchain": present}
    Path(app.doctreedir).mkdir(parents=True, exist_ok=True)
    (Path(app.doctreedir) / KERNEL_RECORD).write_text(json.dumps(record), "utf-8")
    if os.environ.get(KERNEL_ENV) == "reader":
        logger.info("jaxguide: the pages execute in a reader's Python: %s", python)


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _check_reader_kernel, priority=600)
    use_page_kernels()
