"""launch() plays a cluster's launcher on one machine (src/jaxguide/processes.py).

The programs here are plain Python, so the tests need no JAX in the
processes; the several-processes page runs the real thing in the build.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jaxguide.processes import LaunchError, launch

ARGUMENTS = """
import os, sys
print("[Gloo] connected to the others")
print(sys.argv[1:], os.environ["JAX_PLATFORMS"], os.environ["XLA_FLAGS"])
"""


def test_each_process_gets_the_launchers_arguments_and_its_devices() -> None:
    printed = launch(ARGUMENTS, count=3, devices_each=4)
    assert len(printed) == 3
    addresses = set()
    for process_id, lines in enumerate(printed):
        assert len(lines) == 1, lines  # the collectives' chatter is left out
        arguments, platforms, flags = lines[0].rsplit(" ", 2)
        address, count, own_id = eval(arguments)
        addresses.add(address)
        assert address.startswith("localhost:")
        assert (count, own_id) == ("3", str(process_id))
        assert platforms == "cpu"
        assert flags == "--xla_force_host_platform_device_count=4"
    assert len(addresses) == 1  # one coordinator for all


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_one_failure_stops_the_others_and_shows_its_traceback(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    program = f"""
import os, pathlib, sys, time
pathlib.Path({str(pids)!r}, sys.argv[3]).write_text(str(os.getpid()))
if sys.argv[3] == "1":
    while len(list(pathlib.Path({str(pids)!r}).iterdir())) < 3:
        time.sleep(0.01)
    raise ValueError("process one cannot go on")
time.sleep(600)
"""
    with pytest.raises(LaunchError) as error:
        launch(program, count=3, deadline_s=300)
    message = str(error.value)
    assert message.startswith("the processes failed: process 1 exited with code 1")
    assert "ValueError: process one cannot go on" in message
    assert "Traceback (most recent call last)" in message
    assert not any(alive(int(pid.read_text())) for pid in pids.iterdir())


def test_a_program_past_its_deadline_is_stopped_and_named(tmp_path: Path) -> None:
    pid = tmp_path / "pid"
    program = f"""
import os, pathlib, time
pathlib.Path({str(pid)!r}).write_text(str(os.getpid()))
time.sleep(600)
"""
    with pytest.raises(
        LaunchError, match=r"still running after deadline_s=0.5 s"
    ) as error:
        launch(program, count=1, deadline_s=0.5)
    assert "raise deadline_s" in str(error.value)
    written = pid.read_text() if pid.exists() else ""  # it may not have started yet
    if written:
        assert not alive(int(written))


def attempts(tmp_path: Path, stderr: str) -> str:
    """A program whose first start fails writing ``stderr``; it counts starts."""
    starts = tmp_path / "starts"
    return f"""
import pathlib, sys
starts = pathlib.Path({str(starts)!r})
if sys.argv[3] == "0":
    starts.write_text(starts.read_text() + "x" if starts.exists() else "x")
    if starts.read_text() == "x":
        sys.exit({stderr!r})
print("started")
"""


def test_a_taken_port_is_tried_again_on_another(tmp_path: Path) -> None:
    program = attempts(tmp_path, "Failed to add port to server: address in use")
    assert launch(program) == [["started"], ["started"]]
    assert (tmp_path / "starts").read_text() == "xx"


def test_any_other_failure_is_not_tried_again(tmp_path: Path) -> None:
    program = attempts(tmp_path, "RuntimeError: something else")
    with pytest.raises(LaunchError, match="RuntimeError: something else"):
        launch(program)
    assert (tmp_path / "starts").read_text() == "x"


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"count": 0}, "count=0: it must be positive"),
        ({"devices_each": -1}, "devices_each=-1: it must be positive"),
        ({"deadline_s": 0}, "deadline_s=0: it must be positive"),
        ({"program": "  \n"}, "program is empty: pass the Python source"),
    ],
)
def test_bad_arguments_are_named_before_anything_starts(
    arguments: dict[str, object], problem: str
) -> None:
    call: dict[str, object] = {"program": "print(1)", **arguments}
    with pytest.raises(ValueError, match=problem):
        launch(**call)  # type: ignore[arg-type]
