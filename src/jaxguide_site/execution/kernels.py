"""Page kernels talk to the build over Unix sockets, not TCP ports.

The parallel readers of a build start kernels at the same moment, and two of
them could take the same TCP port (``zmq.error.ZMQError: Address already in
use``, seen once in three clean-clone test runs; :mod:`.kernel_sockets` says
why). myst-nb executes every notebook through jupyter-cache's
``single_nb_execution``, which calls nbclient's ``execute`` by its module
global ``executenb``; that global is replaced with one that gives nbclient
:class:`.kernel_sockets.UnixSocketKernelManager`, and the kernel the options
the cache is keyed on (:data:`.cache_key.KERNEL_ARGUMENTS`). Listed in
workarounds.toml.
"""

from __future__ import annotations

import sys
from functools import partial
from typing import TYPE_CHECKING

import jupyter_cache.executors.utils as jupyter_cache_executors
import nbclient

from .cache_key import KERNEL_ARGUMENTS
from .kernel_sockets import UnixSocketKernelManager

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def use_unix_sockets() -> None:
    """Make every notebook that myst-nb executes in this process (and in the
    readers it forks) start its kernel on Unix sockets."""
    jupyter_cache_executors.executenb = partial(
        nbclient.execute,
        kernel_manager_class=UnixSocketKernelManager,
        extra_arguments=list(KERNEL_ARGUMENTS),
    )


def setup(app: Sphinx) -> None:
    del app
    if sys.platform != "win32":  # no ipc transport there; Sphinx reads serially anyway
        use_unix_sockets()
