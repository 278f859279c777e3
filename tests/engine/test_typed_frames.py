"""Each frame-machine game declares its frames and its views as TypedDicts: every frame its rules push, and every
view a seat gets, has exactly the fields, and the types, those declarations give.

The compiled rules (mypyc) trust these types: a field holding something its declaration does not allow would stop a
compiled game with a TypeError, so random games check every frame on the stack after every action."""

from __future__ import annotations

import ast
import importlib.util
import random
import types
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from muster.core.frames import copy_frames, known
from muster.core.registry import game_module, get_rules

GAMES = ["freedom", "hellenes"]
"""The games on the shared frame machine (each with a ``state.Frame`` and a ``view`` module)."""


def _problems(value: Any, hint: Any, where: str, ns: dict[str, Any]) -> list[str]:
    """Where ``value`` does not fit the type ``hint`` (a JSON-ready value against a TypedDict field's type; ``ns``:
    the names the declarations use)."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return []
    if origin in (Required, NotRequired):
        return _problems(value, args[0], where, ns)
    if origin in (Union, types.UnionType):
        fits = [not _problems(value, arg, where, ns) for arg in args]
        return [] if any(fits) else [f"{where}: {value!r} is not {hint}"]
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if hint is None or hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if is_typeddict(hint):
        return _typed_dict_problems(value, hint, where, ns)
    if origin is list:
        if type(value) is not list:
            return [f"{where}: {value!r} is not a list"]
        return [p for i, item in enumerate(value) for p in _problems(item, args[0], f"{where}[{i}]", ns)]
    if origin is dict:
        if type(value) is not dict:
            return [f"{where}: {value!r} is not a dict"]
        return [p for k, v in value.items() for p in [*_problems(k, args[0], f"{where} key", ns),
                                                       *_problems(v, args[1], f"{where}[{k!r}]", ns)]]
    if hint is int:
        return [] if type(value) is int else [f"{where}: {value!r} is not an int"]
    if hint in (str, bool):
        return [] if type(value) is hint else [f"{where}: {value!r} is not a {hint.__name__}"]
    raise AssertionError(f"{where}: the test does not know the type {hint!r}")


def _typed_dict_problems(value: Any, td: Any, where: str, ns: dict[str, Any]) -> list[str]:
    """Where a dict does not fit a TypedDict: a field it does not declare, a required one missing, a wrong type."""
    if type(value) is not dict:
        return [f"{where}: {value!r} is not a dict"]
    hints = get_type_hints(td, globalns=ns, include_extras=True)
    # which fields are required, from the declarations themselves (under postponed annotations Python 3.11 does
    # not see NotRequired in ``__required_keys__``); every TypedDict here has one totality throughout
    required = [k for k, h in hints.items() if get_origin(h) is Required
                or (td.__total__ and get_origin(h) is not NotRequired)]
    out = [f"{where}: undeclared field {k!r}" for k in value if k not in hints]
    out += [f"{where}: missing field {k!r}" for k in required if k not in value]
    for key, field_value in value.items():
        if key in hints:
            out += _problems(field_value, hints[key], f"{where}[{key!r}]", ns)
    return out


def _declarations(module: str, ns: dict[str, Any] | None = None) -> dict[str, Any]:
    """The TypedDicts and ``Literal`` aliases ``module`` declares, run from its source file: a compiled (mypyc)
    module keeps of its TypedDicts little more than their names, and these checks matter most for the compiled
    rules. ``ns``: names the declarations take from elsewhere (a view's ``Frame`` and what that uses)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    origin = Path(spec.origin)
    source = origin.with_name(origin.name.partition(".")[0] + ".py")
    declared: set[str] = {"TypedDict"}
    keep: list[ast.stmt] = []
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        imports = isinstance(node, ast.ImportFrom) and node.module in ("__future__", "typing")
        if imports or (isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript)
                       and ast.unparse(node.value.value) == "Literal"):
            keep.append(node)
        elif isinstance(node, ast.ClassDef) and any(ast.unparse(base) in declared for base in node.bases):
            keep.append(node)
            declared.add(node.name)
    out: dict[str, Any] = {**(ns or {}), "__name__": f"declared:{module}"}
    exec(compile(ast.Module(keep, type_ignores=[]), str(source), "exec"), out)
    return out


def _frame_types(game: str) -> dict[str, Any]:
    return _declarations(f"{game_module(game).package}.state")


def _view_type(game: str) -> tuple[Any, dict[str, Any]]:
    ns = _declarations(f"{game_module(game).package}.view", _frame_types(game))  # its Frame is the state's
    found = [v for k, v in ns.items() if k.endswith("View") and is_typeddict(v)]
    assert len(found) == 1, f"{game}'s view module declares one view TypedDict"
    return found[0], ns


@pytest.mark.parametrize("game", GAMES)
def test_every_frame_kind_is_declared_and_registered(game: str) -> None:
    rules, ns = get_rules(game), _frame_types(game)
    kinds = set(get_args(get_type_hints(ns["Frame"], globalns=ns)["kind"]))  # Required[…] stripped
    registered = set(rules.machine.auto_steps) | set(rules.machine.decisions)
    assert kinds == registered


@pytest.mark.parametrize("game", GAMES)
def test_every_frame_of_random_games_fits_the_games_frame_type(game: str) -> None:
    rules, ns = get_rules(game), _frame_types(game)
    for seed in range(3):
        state = rules.setup(seed)
        chooser = random.Random(seed)
        while rules.active_seat(state) is not None:
            for depth, f in enumerate(state.stack):
                problems = _typed_dict_problems(f, ns["Frame"], f"seed {seed}, step {state.step}, stack[{depth}]", ns)
                assert not problems, problems[:5]
            rules.apply(state, chooser.choice(rules.legal_actions(state)))


@pytest.mark.parametrize("game", GAMES)
def test_every_view_fits_the_games_view_type(game: str) -> None:
    rules, (view_type, ns) = get_rules(game), _view_type(game)
    state = rules.setup(5)
    chooser = random.Random(5)
    step = 0
    while rules.active_seat(state) is not None and step < 400:
        if step % 40 == 0:
            for seat in [None, *rules.info.seats]:
                problems = _typed_dict_problems(rules.view(state, seat), view_type, f"step {step}, {seat}'s view", ns)
                assert not problems, problems[:5]
        rules.apply(state, chooser.choice(rules.legal_actions(state)))
        step += 1


def test_the_checker_sees_a_wrong_field() -> None:
    # the checks above are only as good as this: a field of the wrong type, an unknown field, a missing one
    class Sample(typing.TypedDict, total=False):
        kind: Required[Literal["a"]]
        left: int
        src: str | None
        done: list[str]

    assert not _typed_dict_problems({"kind": "a", "left": 2, "src": None, "done": ["x"]}, Sample, "f", globals())
    assert _typed_dict_problems({"kind": "b"}, Sample, "f", globals())
    assert _typed_dict_problems({"kind": "a", "left": "2"}, Sample, "f", globals())
    assert _typed_dict_problems({"kind": "a", "left": True}, Sample, "f", globals())
    assert _typed_dict_problems({"kind": "a", "done": [1]}, Sample, "f", globals())
    assert _typed_dict_problems({"kind": "a", "other": 1}, Sample, "f", globals())
    assert _typed_dict_problems({"left": 1}, Sample, "f", globals())


def test_a_field_read_before_it_is_set_is_a_type_error() -> None:
    # as using the None would be: loading a saved state whose decision reads such a field reports a corrupt state
    assert known("r6c3") == "r6c3"
    assert known(0) == 0
    with pytest.raises(TypeError):
        known(None)


def test_copied_frames_share_no_list_or_dict_with_the_originals() -> None:
    """A state's clone copies its decision stack to any depth: changing a copy's frame, or a list or dict
    nested inside one, leaves the original as it was (and the copy equals the original until then)."""
    original: list[Any] = [{"kind": "k", "seat": "a", "fired": ["x"], "spent": {"move": [1, [2]]}, "n": 3}]
    copy = copy_frames(original)
    assert copy == original
    copy[0]["fired"].append("y")
    copy[0]["spent"]["move"][1].append(5)
    copy[0]["n"] = 4
    assert original == [{"kind": "k", "seat": "a", "fired": ["x"], "spent": {"move": [1, [2]]}, "n": 3}]
