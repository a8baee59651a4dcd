"""The commands the docs tell a contributor to run exist: every `nox -s`
session, every `python -m` module of ours, and every tool a pre-commit hook
runs is one the lint environment installs."""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib

import pytest
import yaml

from helpers import REPO

DOCS_WITH_COMMANDS = [
    "README.md",
    "CONTRIBUTING.md",
    "ARCHITECTURE.md",
    "docs/en/contributing.md",
    "docs/ko/contributing.md",
    ".pre-commit-config.yaml",
    ".ci/run",
]
# `nox -s a b c`, `nox -r -s a`, `nox -s a -- args`: the session names up to
# the first word that is not one.
NOX_SESSIONS = re.compile(r"\bnox(?: -r)? -s((?: [a-z][a-z0-9_-]*)+)")
PYTHON_MODULE = re.compile(r"\bpython3? -m ([A-Za-z_][\w.]*)")
# Modules of Python or of the tools nox installs, not ours.
NOT_OURS = {"pip", "nox", "http.server", "venv", "pytest", "jupyter"}


def sessions() -> set[str]:
    """The noxfile's sessions, read from its source (nox need not be
    importable here)."""
    tree = ast.parse((REPO / "noxfile.py").read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if ast.unparse(target) == "nox.session":
                    names.add(node.name)
    return names


def named_sessions(text: str) -> set[str]:
    return {name for match in NOX_SESSIONS.finditer(text) for name in match[1].split()}


@pytest.mark.parametrize("doc", DOCS_WITH_COMMANDS)
def test_every_nox_session_a_doc_names_exists(doc: str) -> None:
    text = (REPO / doc).read_text(encoding="utf-8")
    missing = named_sessions(text) - sessions()
    assert not missing, f"{doc} names nox sessions that noxfile.py lacks: {missing}"


BENCHMARK = re.compile(r"\bnox -s benchmark -- ([a-z_]+)")


@pytest.mark.parametrize("doc", DOCS_WITH_COMMANDS)
def test_every_benchmark_a_doc_names_exists(doc: str) -> None:
    noxfile = (REPO / "noxfile.py").read_text(encoding="utf-8")
    measurements = ast.literal_eval(
        re.search(r"^MEASUREMENTS = (\{.*?\n\})", noxfile, re.DOTALL | re.MULTILINE)[1]
    )
    text = (REPO / doc).read_text(encoding="utf-8")
    missing = set(BENCHMARK.findall(text)) - set(measurements)
    assert not missing, f"{doc} names benchmarks noxfile.py lacks: {missing}"


def test_the_session_pattern_reads_a_list_of_sessions() -> None:
    text = "run `python -m nox -s lint tests site -- -x` or `nox -r -s i18n`"
    assert named_sessions(text) == {"lint", "tests", "site", "i18n"}


@pytest.mark.parametrize("doc", DOCS_WITH_COMMANDS)
def test_every_python_module_a_doc_names_exists(doc: str) -> None:
    text = (REPO / doc).read_text(encoding="utf-8")
    for module in {m[1].rstrip(".") for m in PYTHON_MODULE.finditer(text)}:
        if module.split(".")[0] in NOT_OURS or module in NOT_OURS:
            continue
        assert importlib.util.find_spec(module) is not None, (
            f"{doc} runs `python -m {module}`, which is not a module here"
        )


def test_every_pre_commit_hook_runs_a_tool_the_lint_environment_installs() -> None:
    config = yaml.safe_load(
        (REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    )
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    lint = {
        re.split(r"[\[<>=!~ ]", requirement, maxsplit=1)[0]
        for requirement in pyproject["dependency-groups"]["lint"]
        if isinstance(requirement, str)
    }
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert hooks
    for hook in hooks:
        tool = hook["entry"].split()[0]
        if tool == "python":
            module = hook["entry"].split()[2]
            assert importlib.util.find_spec(module) is not None, hook["id"]
        else:
            assert tool in lint, (
                f"hook {hook['id']} runs {tool}, which the lint group of "
                "pyproject.toml does not install"
            )
