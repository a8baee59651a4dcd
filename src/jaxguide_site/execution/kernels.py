"""The kernels the pages execute in: a reader's Python, one page at a time.

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

**One page at a time in Sphinx.** A full build executes every page before
Sphinx reads it (:mod:`.prefill`, one process scheduling the kernels); Sphinx
executes a page only where that step did not (a page that failed there,
``nox -s serve``, the tests' small builds). myst-nb executes through
jupyter-cache's ``single_nb_execution``, which calls nbclient's ``execute``
by its module global ``executenb``; that global is replaced with
:func:`execute`, which gives the kernel the options the cache is keyed on
(:data:`.cache_key.KERNEL_ARGUMENTS`), ``JAXGUIDE_GLUE`` and, on a measuring
page, :data:`jaxguide.site.MEASURED_ALONE_ENV`, and which refuses to run in
a parallel reader: readers executing side by side raced for jupyter-cache's
tables and its trim, and would share the cores with a measuring page.

**Unix sockets.** Every page kernel, the pre-step's and Sphinx's, listens
on Unix sockets of its own (:mod:`.kernel_sockets`): kernels that different
processes start at once (the tests run builds side by side) could take the
same TCP port (``zmq.error.ZMQError: Address already in use``). Both
listed in workarounds.toml.
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

from jaxguide.site import GLUE_ENV, MEASURED_ALONE_ENV

from .cache_key import KERNEL_ARGUMENTS, KERNEL_ENV
from .kernel_sockets import UnixSocketKernelManager
from .measuring import measures
from .preview import CONFIG_NAME as EXECUTES

if TYPE_CHECKING:
    from nbformat import NotebookNode
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

KERNEL_NAME = "python3"  # every page's kernelspec
# Set by site_build (-D jaxguide_prefilled=1) after execution/prefill.py ran.
PREFILLED = "jaxguide_prefilled"
KERNEL_RECORD = "kernel.json"
# What a reader's kernel does not have.
TOOLCHAIN = ("sphinx", "myst_nb", "myst_parser", "jupyter_cache", "docutils")
_FIND = (
    "import importlib.util, sys; "
    "print(' '.join(n for n in sys.argv[1:] if importlib.util.find_spec(n)))"
)


def page_client(nb: NotebookNode, cwd: str | None, **options: Any) -> NotebookClient:
    """An nbclient for one page: its kernel on Unix sockets
    (:mod:`.kernel_sockets`), with the options the cache is keyed on."""
    if sys.platform != "win32":  # no ipc transport there
        options["kernel_manager_class"] = UnixSocketKernelManager
    return NotebookClient(
        nb,
        resources={"metadata": {"path": cwd}} if cwd else {},
        extra_arguments=list(KERNEL_ARGUMENTS),
        **options,
    )


def kernel_environment(nb: NotebookNode) -> dict[str, str]:
    """The environment of a page's kernel: told that glued values are
    recorded and, for a page that measures, that it runs alone."""
    env = {**os.environ, GLUE_ENV: "1"}
    if measures(nb.metadata):
        env[MEASURED_ALONE_ENV] = "1"
    else:
        env.pop(MEASURED_ALONE_ENV, None)
    return env


def execute(nb: NotebookNode, cwd: str | None = None, **options: Any) -> NotebookNode:
    """nbclient's ``execute`` for a page Sphinx executes: only in Sphinx's
    own process, so one page at a time (see the module's docstring)."""
    if os.getpid() != _Readers.main_pid:
        msg = (
            "a parallel reader was about to execute a page: pages execute "
            "before Sphinx reads them (python -m jaxguide_site.execution."
            "prefill, which `nox -s docs` runs) or in a build without -j"
        )
        raise RuntimeError(msg)
    client = page_client(nb, cwd, **options)
    executed: NotebookNode = client.execute(env=kernel_environment(nb))
    return executed


class _Readers:
    main_pid = os.getpid()


def use_page_kernels() -> None:
    """Make every notebook that myst-nb executes in this process start its
    kernel through :func:`execute`; the readers Sphinx forks may not."""
    _Readers.main_pid = os.getpid()
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


def _refuse_parallel_execution(app: Sphinx) -> None:
    """A build with parallel readers may execute pages only after the
    pre-step (site_build passes ``-D jaxguide_prefilled=1``): its readers
    would otherwise execute side by side. :func:`execute` stops any that
    still tries."""
    nb_config = getattr(app.env, "mystnb_config", None)  # set by myst-nb just before
    if nb_config is None or nb_config.execution_mode == "off":
        return
    if app.parallel > 1 and app.config[EXECUTES] and not app.config[PREFILLED]:
        msg = (
            f"-j {app.parallel}: a build with parallel readers executes no page "
            "itself; build with `python -m jaxguide_site.site_build` (or `nox "
            "-s docs`), which executes the pages first, or without -j"
        )
        raise ExtensionError(msg)


def setup(app: Sphinx) -> None:
    app.add_config_value(PREFILLED, False, "", bool)
    app.connect("builder-inited", _refuse_parallel_execution, priority=600)
    app.connect("builder-inited", _check_reader_kernel, priority=600)
    use_page_kernels()
