"""The workarounds list (src/jaxguide_site/workarounds.toml) is whole and
current: every copied or filtered template is on it, every entry names real
places and real tests, and the upstream code each was written against has not
changed. Below them, the drift tests of the entries that rely on upstream
behaviour rather than on a file that can be hashed.

Run as a script, it prints the [sha256] table for the installed upstream:
``.nox/tests/bin/python tests/test_workarounds.py``.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import os
import re
import sys
import tomllib
import traceback
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
LIST = REPO / "src" / "jaxguide_site" / "workarounds.toml"
TEMPLATES = REPO / "docs" / "_templates"
FIELDS = {
    "id",
    "where",
    "works_around",
    "upstream",
    "files",
    "sources",
    "tests",
    "fixed_in",
}


def _list() -> dict[str, Any]:
    return tomllib.loads(LIST.read_text(encoding="utf-8"))


def _entries() -> list[dict[str, Any]]:
    return list(_list()["workaround"])


def _origin(module: str) -> Path:
    spec = find_spec(module)
    if spec is None or spec.origin is None:
        pytest.fail(f"{module} is not installed: install the test environment")
    return Path(spec.origin)


def upstream_text(key: str) -> str:
    """The text of ``file:<package>:<path>`` or ``source:<module>:<name>``."""
    kind, module, name = key.split(":", 2)
    if kind == "file":
        return (_origin(module).parent / name).read_text(encoding="utf-8")
    # Read from the module's file, not the live object: a workaround may
    # have replaced it in this process (jupyter-cache's truncate_caches).
    source = _origin(module).read_text(encoding="utf-8")
    scope: list[ast.stmt] = ast.parse(source).body
    found: ast.stmt | None = None
    for part in name.split("."):
        found = next(
            (
                node
                for node in scope
                if isinstance(
                    node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
                )
                and node.name == part
            ),
            None,
        )
        assert found is not None, f"{module} has no {name}: upstream changed"
        scope = found.body  # type: ignore[attr-defined]
    segment = ast.get_source_segment(source, found) if found else None
    assert segment is not None
    return segment


def _keys(entry: dict[str, Any]) -> list[str]:
    return [f"file:{f}" for f in entry.get("files", [])] + [
        f"source:{s}" for s in entry.get("sources", [])
    ]


def sha256(key: str) -> str:
    return hashlib.sha256(upstream_text(key).encode()).hexdigest()


def _python_names(path: Path) -> set[str]:
    """What a module defines at its top level, and its classes' members as
    ``Class.member``."""

    def defined(node: ast.stmt) -> list[str]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [node.name]
        if isinstance(node, ast.Assign):
            return [t.id for t in node.targets if isinstance(t, ast.Name)]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return [node.target.id]
        return []

    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        names.update(defined(node))
        if isinstance(node, ast.ClassDef):
            names.update(
                f"{node.name}.{name}" for child in node.body for name in defined(child)
            )
    return names


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
    }


@pytest.mark.parametrize("entry", _entries(), ids=lambda entry: entry["id"])
def test_upstream_is_what_the_workaround_was_written_against(
    entry: dict[str, Any],
) -> None:
    recorded = _list()["sha256"]
    for key in _keys(entry):
        assert key in recorded, f"{entry['id']}: no sha256 recorded for {key}"
        assert sha256(key) == recorded[key], (
            f"{entry['id']}: {key} changed upstream since {entry['upstream']}. "
            f"Check {', '.join(entry['where'])} against it (re-copy a template and "
            "re-apply our change; check that a patch still fits), update the "
            "entry's upstream version, then record the new hash printed by "
            "`.nox/tests/bin/python tests/test_workarounds.py`"
        )


@pytest.mark.parametrize("entry", _entries(), ids=lambda entry: entry["id"])
def test_each_entry_names_real_places_and_a_drift_check(entry: dict[str, Any]) -> None:
    name = entry.get("id")
    for field in ("id", "where", "works_around", "upstream"):
        assert entry.get(field), f"{name}: no {field}"
    assert not entry.keys() - FIELDS, f"{name}: unknown fields {entry.keys() - FIELDS}"
    for place in entry["where"]:
        path, _, thing = place.partition("::")
        assert (REPO / path).is_file(), f"{name}: {path} does not exist"
        if thing and path.endswith(".py"):
            assert thing in _python_names(REPO / path), (
                f"{name}: {path} defines no {thing} (renamed? update the entry)"
            )
        elif thing:
            assert thing in (REPO / path).read_text(encoding="utf-8"), (
                f"{name}: {path} has no {thing!r} (renamed? update the entry)"
            )
    for distribution, version in re.findall(r"([\w.-]+) (\d[\w.]*)", entry["upstream"]):
        try:
            metadata.version(distribution)
        except metadata.PackageNotFoundError:
            pytest.fail(f"{name}: upstream {distribution} {version} is not installed")
    assert _keys(entry) or entry.get("tests"), f"{name}: nothing catches a drift"
    for test in entry.get("tests", []):
        path, _, function = test.partition("::")
        assert (REPO / path).is_file(), f"{name}: {path} does not exist"
        if function:
            assert function in _test_names(REPO / path), (
                f"{name}: {path} has no {function}"
            )


def test_every_template_is_ours_or_on_the_list() -> None:
    listed = {
        place.partition("::")[0] for entry in _entries() for place in entry["where"]
    }
    own = {f"docs/_templates/{name}" for name in _list()["own_templates"]}
    templates = {p.relative_to(REPO).as_posix() for p in TEMPLATES.rglob("*.html")}
    unlisted = sorted(templates - listed - own)
    assert not unlisted, (
        f"{unlisted}: a template copied or filtered from a theme goes on "
        "src/jaxguide_site/workarounds.toml with its drift check; one of our "
        "own goes in its own_templates"
    )
    assert sorted(own - templates) == [], "own_templates names a template that is gone"


def test_ids_are_unique_and_no_hash_is_recorded_for_nothing() -> None:
    ids = [entry["id"] for entry in _entries()]
    assert len(ids) == len(set(ids))
    used = {key for entry in _entries() for key in _keys(entry)}
    assert set(_list()["sha256"]) == used


# -- Drift tests of behaviour relied on -----------------------------------------


def test_execution_table_headers_are_myst_nbs() -> None:
    """interface_text/execution_table.py matches myst-nb's headers exactly and
    runs right after myst-nb's transform."""
    from myst_nb.ext import execution_tables  # noqa: PLC0415

    from jaxguide_site.interface_text.execution_table import (  # noqa: PLC0415
        HEADERS,
        TranslateExecTableHeaders,
    )

    source = inspect.getsource(execution_tables.make_stat_table)
    assert '["Document"] + list(_key2header.values())' in source, (
        "myst-nb builds its execution table's header row differently: check "
        "interface_text/execution_table.py"
    )
    upstream = ["Document", *execution_tables._key2header.values()]
    assert upstream == list(HEADERS), "myst-nb's execution table headers changed"
    assert (
        execution_tables.ExecutionStatsPostTransform.default_priority
        == TranslateExecTableHeaders.default_priority - 1
    )


def test_myst_nb_creates_its_client_through_its_module_global() -> None:
    """execution/preview.py replaces ``myst_nb.sphinx_.create_client``: myst-nb
    must look it up there when it parses a page, and its base client must
    take what the preview gives it."""
    from myst_nb import sphinx_  # noqa: PLC0415
    from myst_nb.core import execute  # noqa: PLC0415

    assert sphinx_.create_client is execute.create_client, (
        "myst_nb.sphinx_ no longer imports create_client (or a preview left it "
        "patched): execution/preview.py patches the wrong name"
    )
    parse = inspect.getsource(sphinx_.Parser.parse)
    assert "with create_client(" in parse, (
        "myst-nb's parser no longer calls create_client"
    )
    parameters = list(inspect.signature(execute.NotebookClientBase).parameters)
    assert parameters[:4] == ["notebook", "path", "nb_config", "logger"]


def test_page_kernels_listen_on_unix_sockets_of_their_own(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """execution/kernels.py replaces jupyter-cache's ``executenb``: the
    notebooks myst-nb executes (through ``single_nb_execution``, which looks
    that global up on each call) must get kernels on the ipc transport, which
    no other reader's kernel can take (a TCP port can be), each under a
    socket name of its own (jupyter_client's default is the same relative
    name for every kernel of a folder), removed when the kernel stops; and
    only the kernel is told that glued values are recorded (JAXGUIDE_GLUE),
    not the build's process, where an in-process test build would leave it."""
    import nbformat  # noqa: PLC0415
    from jupyter_cache.executors import utils  # noqa: PLC0415

    from jaxguide_site.execution.kernels import use_page_kernels  # noqa: PLC0415

    monkeypatch.setattr(utils, "executenb", utils.executenb)  # restored afterwards
    use_page_kernels()
    source = (
        "import os\n"
        "from ipykernel.connect import get_connection_info\n"
        "info = get_connection_info(unpack=True)\n"
        "print(info['transport'], info['ip'], os.environ.get('JAXGUIDE_GLUE'))"
    )
    seen = []
    for _ in range(2):  # two pages of one folder
        cell = nbformat.v4.new_code_cell(source)
        notebook = nbformat.v4.new_notebook(cells=[cell])
        notebook.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3",
        }
        result = utils.single_nb_execution(
            notebook, cwd=str(tmp_path), timeout=120, allow_errors=False
        )
        assert result.err is None, result.exc_string
        transport, ip, glue = cell.outputs[0]["text"].split()
        assert glue == "1", "the page kernel was not told to record glued values"
        assert transport == "ipc", (
            "the page kernel does not listen on Unix sockets: parallel readers "
            "can race for its TCP ports again (see execution/kernels.py)"
        )
        seen.append(Path(ip))
    assert all(ip.is_absolute() for ip in seen), seen
    assert seen[0] != seen[1], "two kernels would share their socket files"
    assert "JAXGUIDE_GLUE" not in os.environ
    left = [path for ip in seen for path in ip.parent.glob(ip.name + "-*")]
    assert not left, f"socket files left after the kernels stopped: {left}"


GLUED = """\
class Rich:
    def __repr__(self): return "Rich()"
    def _repr_html_(self): return "<b>rich</b>"
    def _repr_markdown_(self): return "**rich**"

for name, value in [("number", 42), ("text", "1.2 ms"), ("rich", Rich())]:
    glue(name, value, display={display})
"""


@pytest.mark.parametrize("display", [False, True])
def test_jaxguide_glue_writes_what_myst_nbs_glue_writes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, display: bool
) -> None:
    """jaxguide.glue writes myst-nb's glue format itself, so that the pages'
    kernel (a reader's Python) needs no myst-nb: in a real kernel, its outputs
    for a number, text and a rich object are myst_nb.glue's, and myst-nb
    reads the values back from them."""
    import nbclient  # noqa: PLC0415
    import nbformat  # noqa: PLC0415
    from myst_nb.ext.glue import extract_glue_data_cell  # noqa: PLC0415

    from jaxguide.site import GLUE_ENV  # noqa: PLC0415
    from jaxguide_site.execution.kernel_sockets import (  # noqa: PLC0415
        UnixSocketKernelManager,
    )

    monkeypatch.setenv(GLUE_ENV, "1")
    ours, theirs = (
        nbformat.v4.new_code_cell(
            f"from {module} import glue\n" + GLUED.format(display=display)
        )
        for module in ("jaxguide", "myst_nb")
    )
    notebook = nbformat.v4.new_notebook(cells=[ours, theirs])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbclient.execute(
        notebook,
        cwd=str(tmp_path),
        kernel_manager_class=UnixSocketKernelManager,
        timeout=120,
    )
    assert len(ours.outputs) == 3, ours.outputs
    assert ours.outputs == theirs.outputs, (
        "jaxguide.glue no longer writes what myst_nb.glue writes: compare "
        "src/jaxguide/site.py::_record with myst_nb.ext.glue.glue"
    )
    found = dict(extract_glue_data_cell(ours))
    assert sorted(found) == ["number", "rich", "text"]
    assert found["text"]["data"]["text/plain"] == "'1.2 ms'"
    assert found["rich"]["data"]["text/html"] == "<b>rich</b>"


def test_myst_nb_keeps_its_state_where_the_site_reads_it() -> None:
    """env.mystnb_config and env.myst_config set at builder-inited (default
    priority: execution/cache.py runs at 600), execution results in
    env.nb_metadata, create_nb_reader's arguments, the jupyter_execute folder."""
    from myst_nb import sphinx_, sphinx_ext  # noqa: PLC0415
    from myst_nb.core.read import create_nb_reader  # noqa: PLC0415
    from myst_parser.sphinx_ext import main as myst_parser_ext  # noqa: PLC0415

    assert "app.env.mystnb_config = " in inspect.getsource(
        sphinx_ext.create_mystnb_config
    )
    assert "app.env.myst_config = " in inspect.getsource(
        myst_parser_ext.create_myst_config
    )
    setup = inspect.getsource(sphinx_ext.sphinx_setup)
    assert 'app.connect("builder-inited", create_mystnb_config)' in setup
    assert sphinx_ext.OUTPUT_FOLDER == "jupyter_execute"  # beside the outdir
    assert "Path(app.outdir).parent.joinpath(OUTPUT_FOLDER)" in inspect.getsource(
        sphinx_ext.create_mystnb_config
    )
    env = SimpleNamespace()
    sphinx_.NbMetadataCollector.set_doc_data(
        env, "page", "exec_data", {"succeeded": False}
    )
    assert env.nb_metadata["page"]["exec_data"] == {"succeeded": False}
    parameters = list(inspect.signature(create_nb_reader).parameters)
    assert parameters == ["path", "md_config", "nb_config", "content"]


def test_a_failed_cell_is_found_in_nbclients_message() -> None:
    """execution/failures.py finds the failed cell by the source nbclient's
    CellExecutionError quotes; myst-nb passes on the formatted exception."""
    import nbformat  # noqa: PLC0415
    from nbclient.exceptions import CellExecutionError  # noqa: PLC0415

    from jaxguide_site.execution.failures import summarize_failure  # noqa: PLC0415

    page = "# Page\n\n```{code-cell}\nx = 1\n```\n\n```{code-cell}\n1 / 0\n```\n"
    cell = nbformat.v4.new_code_cell("1 / 0")
    message = {
        "traceback": ["ZeroDivisionError: division by zero"],
        "ename": "ZeroDivisionError",
        "evalue": "division by zero",
    }
    try:
        raise CellExecutionError.from_cell_and_msg(cell, message)
    except CellExecutionError as error:
        text = "".join(traceback.format_exception(error))
    assert summarize_failure(text, page) == (
        2,
        7,
        "ZeroDivisionError: division by zero",
    )


if __name__ == "__main__":
    keys = sorted({key for entry in _entries() for key in _keys(entry)})
    sys.stdout.write("[sha256]\n")
    sys.stdout.writelines(f'"{key}" = "{sha256(key)}"\n' for key in keys)
