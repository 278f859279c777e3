"""muster as a library: the README's example, the version, Game's repr and board, find_action, the API reference."""

from __future__ import annotations

import builtins
import doctest
import importlib
import importlib.util
import inspect
import pkgutil
import random
import re
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

import muster
from muster.cli.main import app
from muster.core import Action, IllegalActionError, new_game

ROOT = Path(__file__).resolve().parents[1]
ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`~?\.?([A-Za-z_][\w.]*)`")


def test_readme_library_example_runs() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 4 and result.failed == 0


def test_one_version_source() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"muster {muster.__version__}"
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
    assert f"## {muster.__version__}" in (ROOT / "CHANGELOG.md").read_text()


def test_package_is_typed_and_licensed() -> None:
    assert (ROOT / "src" / "muster" / "py.typed").exists()
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_game_repr_and_board() -> None:
    game = new_game("freedom", seed=3)
    assert repr(game).startswith("<Game freedom seed=3, 0 actions, imperial to act: ")
    svg = game._repr_svg_()
    assert svg is not None and svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


def test_find_action_by_label() -> None:
    game = new_game("freedom", seed=3)
    first, label = game.labelled_actions()[0]
    assert game.find_action(label) == first
    assert game.find_action(f"  {label.upper()} ") == first
    assert game.find_action("done") == Action("done")
    with pytest.raises(IllegalActionError, match="no legal action matches"):
        game.find_action("storm the moon")
    with pytest.raises(IllegalActionError, match="several actions match"):
        game.find_action("Row 6")


def _modules() -> list[ModuleType]:
    out = []
    for info in pkgutil.walk_packages(muster.__path__, "muster."):
        if ".migrations" in info.name:
            continue
        try:
            out.append(importlib.import_module(info.name))
        except ModuleNotFoundError as exc:  # an optional extra (e.g. rl) that is not installed here
            if exc.name and exc.name.split(".")[0] == "muster":
                raise
    return out


def _docstrings(module: ModuleType) -> list[tuple[str, str, list[Any]]]:
    """(where, docstring, namespaces to resolve relative names in) for the module and what it defines."""
    out = [(module.__name__, module.__doc__ or "", [module])]
    for name, obj in vars(module).items():
        if getattr(obj, "__module__", None) != module.__name__ or not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        out.append((f"{module.__name__}.{name}", obj.__doc__ or "", [module, obj]))
        if inspect.isclass(obj):
            for member_name, member in vars(obj).items():
                doc = getattr(member, "__doc__", None) if not isinstance(member, str) else None
                if isinstance(doc, str) and (inspect.isfunction(member) or isinstance(member, property)):
                    out.append((f"{module.__name__}.{name}.{member_name}", doc, [module, obj]))
    return out


def _resolves(target: str, namespaces: list[Any]) -> bool:
    parts = target.split(".")
    for k in range(len(parts), 0, -1):  # an absolute dotted path: the longest importable module, then attributes
        try:
            obj: Any = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        try:
            for attr in parts[k:]:
                obj = getattr(obj, attr)
            return True
        except AttributeError:
            break
    for ns in [*namespaces, builtins]:  # relative to the module or the class, or a builtin
        obj = ns
        try:
            for attr in parts:
                if attr not in getattr(obj, "__annotations__", {}):  # an annotated attribute counts
                    obj = getattr(obj, attr)
            return True
        except AttributeError:
            continue
    return False


def test_api_reference_builds_without_broken_references(tmp_path: Path) -> None:
    pytest.importorskip("pdoc")

    assert not _resolves("muster.core.NoSuchThing", [muster]) and _resolves("Game", [importlib.import_module(
        "muster.core")])  # the checker itself tells a broken reference from a good one

    broken = []
    modules = _modules()
    for module in modules:
        for where, doc, namespaces in _docstrings(module):
            broken += [f"{where}: {t}" for t in ROLE.findall(doc) if not _resolves(t, namespaces)]
    assert not broken, "broken references in docstrings:\n" + "\n".join(broken)
    spec = importlib.util.spec_from_file_location("api_docs", ROOT / "scripts" / "api_docs.py")
    assert spec is not None and spec.loader is not None
    api_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(api_docs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_docs.build(tmp_path)  # what scripts/api_docs.sh publishes
    assert not [str(w.message) for w in caught if "already been added" in str(w.message)]
    assert "action_from_index" in (tmp_path / "muster" / "core" / "spaces.html").read_text()
    # Every module has a page, linked from its package's page (even where the package's __all__ names only
    # what it re-exports), and the migrations have none.
    pages = {p.relative_to(tmp_path).with_suffix("").as_posix().replace("/", ".")
             for p in tmp_path.rglob("*.html") if p.name != "index.html"}
    missing = sorted(m.__name__ for m in modules
                     if m.__name__ not in pages and not m.__name__.rpartition(".")[2].startswith("_"))
    assert not missing, f"modules without a page: {missing}"
    for name in ("muster.core.spaces", "muster.games.freedom.bots.ismcts", "muster.games.freedom.bots.evaluation",
                 "muster.games.freedom.observation", "muster.games.hellenes.observation", "muster.lab.leaderboard"):
        package, _, leaf = name.rpartition(".")
        page = (tmp_path / f"{package.replace('.', '/')}.html").read_text()
        assert f'href="{package.rpartition(".")[2]}/{leaf}.html"' in page
    assert not any(".migrations" in page for page in pages)


@pytest.mark.parametrize("name", ["freedom", "hellenes"])
@pytest.mark.parametrize("lang", [None, "pl"])
def test_the_log_from_a_line_on_is_the_tail_of_the_whole_log(name: str, lang: str | None) -> None:
    game = new_game(name, seed=11)
    chooser = random.Random(2)
    for _ in range(40):
        if game.outcome:
            break
        game.apply(chooser.choice(game.legal_actions()))
    whole = game.log(lang)
    assert len(whole) > 5
    for start in (0, 1, len(whole) // 2, len(whole) - 1, len(whole), len(whole) + 3):
        assert game.log(lang, start=start) == whole[start:]


def test_nothing_outside_the_games_names_a_game() -> None:
    """A game is a plugin: outside ``muster.games`` no code, docstring, comment, script or stylesheet names a
    registered game, by its name or the first word of its title (the shell finds games through their modules)."""
    from muster.core.registry import game_module, game_names

    words = set()
    for name in game_names():
        words.add(name.lower())
        words.add(re.split(r"\W+", game_module(name).title)[0].lower())
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b", re.IGNORECASE)
    root = Path(muster.__file__).parent
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".js", ".css", ".html") or "games" in path.relative_to(root).parts[:1]:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
