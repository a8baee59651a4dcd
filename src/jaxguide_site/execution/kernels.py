"""Page kernels talk to the build over Unix sockets, not TCP ports.

jupyter_client gives a new kernel its five ports by binding each to port 0,
reading the number the system chose and closing the socket; the kernel binds
them again a second or two later, when it has started. The parallel readers
of a build start kernels at the same moment, so another reader's kernel can
take a port in that gap, and the page fails with ``zmq.error.ZMQError:
Address already in use`` (seen once in three clean-clone test runs). With the
``ipc`` transport each kernel's sockets are files under a name drawn for that
kernel alone, which no other kernel can take.

myst-nb executes every notebook through jupyter-cache's
``single_nb_execution``, which calls nbclient's ``execute`` by its module
global ``executenb``; that global is replaced with one that gives nbclient a
kernel manager whose transport defaults to ``ipc``
(:mod:`.kernel_sockets`). Listed in workarounds.toml.
"""

from __future__ import annotations

import sys
from functools import partial
from typing import TYPE_CHECKING

import jupyter_cache.executors.utils as jupyter_cache_executors
import nbclient

from .kernel_sockets import UnixSocketKernelManager

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def use_unix_sockets() -> None:
    """Make every notebook that myst-nb executes in this process (and in the
    readers it forks) start its kernel on Unix sockets."""
    jupyter_cache_executors.executenb = partial(
        nbclient.execute, kernel_manager_class=UnixSocketKernelManager
    )


def setup(app: Sphinx) -> None:
    del app
    if sys.platform != "win32":  # no ipc transport there; Sphinx reads serially anyway
        use_unix_sockets()
