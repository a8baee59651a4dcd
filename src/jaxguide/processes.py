"""Several processes of one JAX program on this machine, as a cluster starts them.

On a cluster, a launcher (Slurm, Kubernetes, a script over SSH) starts the
same program once per host and tells each copy where the coordinator is.
:func:`launch` plays that launcher on one machine: each process gets its own
forced CPU devices, so a page can show ``jax.distributed.initialize`` with
real processes and no cluster.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LaunchError", "free_port", "launch"]

# Printed by the coordination service when the coordinator's port was taken
# between free_port() and the coordinator binding it: worth one more try.
PORT_TAKEN = "Failed to add port"
# Gloo, the CPU's collectives library, reports its connections on stdout.
_COLLECTIVES_CHATTER = "[Gloo]"
# Enough of a traceback to name the error and the line that raised it.
_STDERR_LINES = 6


class LaunchError(RuntimeError):
    """The processes :func:`launch` started did not all finish cleanly."""


def free_port() -> int:
    """A TCP port on ``localhost`` that no program is listening on now."""
    with socket.socket() as probe:
        probe.bind(("localhost", 0))
        port: int = probe.getsockname()[1]
        return port


def launch(
    program: str, count: int = 2, devices_each: int = 2, deadline_s: float = 120
) -> list[list[str]]:
    """Run ``program`` as ``count`` processes; each one's printed lines.

    Each process runs ``program`` as a script with three arguments, as a
    cluster's launcher would give them: the coordinator's address
    (``localhost:<port>``), ``count``, and its own process id, from 0. Each
    sees ``devices_each`` CPU devices, and only the CPU.

    All are stopped as soon as one fails, or at ``deadline_s`` seconds. If
    the coordinator's port was taken before it could listen, they are
    started once more on another port.

    Args:
        program: The Python source each process runs.
        count: How many processes, 1 or more.
        devices_each: CPU devices per process, 1 or more.
        deadline_s: Seconds after which the processes still running are
            stopped.

    Returns:
        The lines each process printed, by process id, without the
        collectives library's connection messages.

    Raises:
        ValueError: If ``count``, ``devices_each`` or ``deadline_s`` is not
            positive, or ``program`` is empty.
        LaunchError: If a process failed (the end of what it wrote to
            stderr is in the message) or the deadline passed.

    Examples:
        >>> launch("import sys; print('I am', sys.argv[3], 'of', sys.argv[2])")
        [['I am 0 of 2'], ['I am 1 of 2']]
    """
    _check(program, count=count, devices_each=devices_each, deadline_s=deadline_s)
    env = {
        **os.environ,
        "JAX_PLATFORMS": "cpu",
        "PYTHONUNBUFFERED": "1",
        "XLA_FLAGS": f"--xla_force_host_platform_device_count={devices_each}",
    }
    with tempfile.TemporaryDirectory(prefix="jaxguide-launch-") as name:
        script = Path(name) / "program.py"
        script.write_text(program, encoding="utf-8")
        for _ in range(2):
            run = _run(script, f"localhost:{free_port()}", count, env, deadline_s)
            if run.failure is None:
                return run.printed
            if PORT_TAKEN not in run.errors[0]:
                break
    msg = f"the processes failed: {run.failure}"
    raise LaunchError(msg)


def _check(program: str, **positive: float) -> None:
    if not program.strip():
        msg = "program is empty: pass the Python source each process runs"
        raise ValueError(msg)
    for name, value in positive.items():
        if not value > 0:
            msg = f"{name}={value!r}: it must be positive (the default is a good start)"
            raise ValueError(msg)


@dataclass(frozen=True)
class _Run:
    printed: list[list[str]]
    errors: list[str]
    failure: str | None


def _run(
    script: Path, address: str, count: int, env: dict[str, str], deadline_s: float
) -> _Run:
    """Start the processes and wait for them."""
    outs = [script.with_name(f"{process_id}.out") for process_id in range(count)]
    errs = [script.with_name(f"{process_id}.err") for process_id in range(count)]
    processes = []
    for process_id in range(count):
        with outs[process_id].open("w") as out, errs[process_id].open("w") as err:
            command = [
                sys.executable,
                str(script),
                address,
                str(count),
                str(process_id),
            ]
            processes.append(subprocess.Popen(command, env=env, stdout=out, stderr=err))
    ending = _wait(processes, deadline_s)
    errors = [err.read_text(encoding="utf-8", errors="replace") for err in errs]
    printed = [
        [
            line
            for line in out.read_text(encoding="utf-8", errors="replace").splitlines()
            if not line.startswith(_COLLECTIVES_CHATTER)
        ]
        for out in outs
    ]
    return _Run(printed, errors, _failure(processes, errors, ending, deadline_s))


@dataclass(frozen=True)
class _Ending:
    in_time: bool
    stopped: frozenset[int]  # the process ids _wait killed


def _wait(processes: Sequence[subprocess.Popen[bytes]], deadline_s: float) -> _Ending:
    """Until all have finished or one has failed, or the deadline; then stop the rest."""
    stop_at = time.monotonic() + deadline_s
    in_time = False
    while time.monotonic() < stop_at:
        codes = [process.poll() for process in processes]
        if None not in codes or any(codes):
            in_time = True
            break
        time.sleep(0.1)
    stopped = set()
    for process_id, process in enumerate(processes):
        if process.poll() is None:
            process.kill()
            stopped.add(process_id)
        process.wait()
    return _Ending(in_time, frozenset(stopped))


def _failure(
    processes: Sequence[subprocess.Popen[bytes]],
    errors: Sequence[str],
    ending: _Ending,
    deadline_s: float,
) -> str | None:
    """What went wrong, or None if every process succeeded."""
    if not ending.in_time:
        return (
            f"still running after deadline_s={deadline_s} s, so all were stopped "
            "(if the program needs longer, raise deadline_s)"
        )
    codes = [process.returncode for process in processes]
    failed = [
        i for i, code in enumerate(codes) if code != 0 and i not in ending.stopped
    ]
    if not failed:
        return None
    process_id = failed[0]
    lines = [line for line in errors[process_id].splitlines() if line.strip()]
    said = "\n".join(f"    {line}" for line in lines[-_STDERR_LINES:])
    said = f", the end of its stderr:\n{said}" if said else ", with nothing on stderr"
    return f"process {process_id} exited with code {codes[process_id]}{said}"
