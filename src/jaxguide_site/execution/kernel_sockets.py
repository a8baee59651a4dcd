"""A kernel manager whose kernels listen on Unix sockets of their own.

Kernels started at the same moment by different processes (the tests'
builds side by side, the downloaded notebooks tested side by side, a build
while a preview server runs) can take the same TCP port: jupyter_client picks a port
by binding port 0 and closing the socket, and the kernel binds it a second or
two later. Unix sockets (the ``ipc`` transport) are files, named here per
kernel, which no other kernel can take.

Needs only jupyter_client: the downloaded-notebook test, whose environment
has none of the site's tooling, loads this file by its path.
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from traitlets import default


class UnixSocketKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels listen on Unix sockets (``ipc``)."""

    @default("transport")
    def _default_transport(self) -> str:
        return "ipc"

    @default("ip")
    def _default_ip(self) -> str:
        # jupyter_client's default is "kernel-ipc" in the working directory
        # when it is asked before the connection file is named, which it is:
        # every kernel of a folder would share one set of socket files.
        return str(Path(tempfile.gettempdir()) / f"jaxguide-kernel-{uuid.uuid4().hex}")
