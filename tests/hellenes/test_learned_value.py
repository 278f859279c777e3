"""Hellenes' learned value: its terms are the hand-written evaluation's, the shipped weights are versioned and
refused when the rules change, the fit recovers known weights, and the search plays with it."""

from __future__ import annotations

import json
import math
import random
from importlib import resources
from pathlib import Path

import pytest

from muster.ai import BotSpecError, make_bot
from muster.core import get_rules
from muster.games.hellenes import learned
from muster.games.hellenes.bots import (
    HELD_CITY,
    PRESTIGE,
    WIN,
    HellenesHeuristicBot,
    evaluate,
    value_inputs,
    value_terms,
)
from muster.games.hellenes.learned import INPUTS, LearnedValue, WeightsMismatchError, weights_name
from muster.games.hellenes.train import fit, main, split

RULES = get_rules("hellenes")


def _positions(seed: int, count: int) -> list[object]:
    """Action menus of a Heuristic game."""
    s = RULES.setup(seed, {"quiet": "1"})
    bot = HellenesHeuristicBot(RULES, seed)
    out: list[object] = []
    while (seat := RULES.active_seat(s)) is not None and len(out) < count:
        legal = RULES.legal_actions(s)
        if s.stack[-1]["kind"] == "actions":
            out.append(RULES.clone(s))
        RULES.apply(s, bot.choose_in(s, legal, seat))
    return out


def test_the_terms_add_up_to_the_hand_written_evaluation() -> None:
    for s in _positions(3, 12):
        prestige, worth, held, engage, sparta_danger, athens_danger = value_terms(s)  # type: ignore[arg-type]
        by_hand = PRESTIGE * prestige + worth + HELD_CITY * held + engage + WIN * (athens_danger - sparta_danger)
        assert by_hand == pytest.approx(evaluate(s, "sparta"), abs=1e-6)  # type: ignore[arg-type]
        assert evaluate(s, "athens") == pytest.approx(-evaluate(s, "sparta"), abs=1e-6)  # type: ignore[arg-type]


def test_the_inputs_scale_the_terms_by_how_far_the_game_has_gone() -> None:
    s = _positions(4, 30)[-1]
    x = value_inputs(s)  # type: ignore[arg-type]
    assert len(x) == len(INPUTS) and x[0] == 1.0
    p = x[INPUTS.index("progress")]
    assert 0.0 < p < 1.0
    for term in learned.BASE_TERMS:
        assert x[INPUTS.index(f"{term}*progress")] == pytest.approx(x[INPUTS.index(term)] * p)


def test_the_weights_ship_under_the_rules_and_action_space_versions() -> None:
    rules_version, actions = learned.versions()
    name = weights_name()
    assert rules_version in name and actions in name
    assert resources.files("muster.games.hellenes").joinpath("data", name).is_file()
    value = learned.shipped()
    assert len(value.weights) == len(INPUTS)
    # a late Prestige lead is nearly a won game for the side holding it; a level start is close to even
    late = _positions(4, 60)[-1]
    late.prestige = 6  # type: ignore[attr-defined]
    assert value.chance(value_inputs(late)) > 0.85  # type: ignore[arg-type]
    late.prestige = -6  # type: ignore[attr-defined]
    assert value.chance(value_inputs(late)) < 0.15  # type: ignore[arg-type]
    start = _positions(4, 1)[0]
    assert 0.25 < value.chance(value_inputs(start)) < 0.75  # type: ignore[arg-type]


def test_weights_for_other_rules_or_inputs_are_refused() -> None:
    data = learned.shipped().to_json()
    with pytest.raises(WeightsMismatchError, match="refit"):
        LearnedValue.from_json({**data, "rules_version": "r0-other"})
    with pytest.raises(WeightsMismatchError, match="refit"):
        LearnedValue.from_json({**data, "action_space": "hellenes-actions-0-000000000000"})
    with pytest.raises(WeightsMismatchError, match="other inputs"):
        LearnedValue.from_json({**data, "inputs": data["inputs"][:-1]})
    with pytest.raises(WeightsMismatchError, match="damaged"):
        LearnedValue.from_json({**data, "weights": [*data["weights"][:-1], math.inf]})


def test_the_fit_recovers_known_weights() -> None:
    draw = random.Random(7)
    truth = [0.3, 1.5, -0.8]
    rows, wins = [], []
    for _ in range(6000):
        x = [1.0, draw.gauss(0, 1), draw.gauss(2, 3)]
        z = sum(w * v for w, v in zip(truth, x, strict=True))
        rows.append(x)
        wins.append(1.0 if draw.random() < 1 / (1 + math.exp(-z)) else 0.0)
    got = fit(rows, wins, l2=0.01)
    assert got == pytest.approx(truth, abs=0.12)


def test_one_command_plays_fits_and_writes_loadable_weights(tmp_path: Path) -> None:
    weights = tmp_path / "weights.json"
    assert main(["--games", "10", "--seed", "900", "--workers", "1", "--out", str(tmp_path / "run"),
                 "--weights", str(weights)]) == 0
    value = LearnedValue.from_json(json.loads(weights.read_text()))
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["held_out"]["positions"] > 0 and {"learned", "hand_scale_30", "base_rate"} <= set(
        report["held_out"])
    games = (tmp_path / "run" / "games.jsonl").read_text().splitlines()
    assert len(games) == 10
    # resumed: the games already played are kept, the same weights come out
    assert main(["--games", "10", "--seed", "900", "--workers", "1", "--out", str(tmp_path / "run"),
                 "--weights", str(weights)]) == 0
    assert LearnedValue.from_json(json.loads(weights.read_text())).weights == value.weights
    train, held = split([json.loads(line) for line in games])
    assert len(train["x"]) == len(train["y"]) and len(held["x"]) == len(held["y"])


def test_the_search_plays_a_game_with_the_learned_value() -> None:
    s = RULES.setup(11, {"quiet": "1"})
    bots = {"athens": make_bot("ismcts:value=learned,cpu=0.2", seed=1, game="hellenes"),
            "sparta": make_bot("heuristic", seed=2, game="hellenes")}
    for _ in range(120):
        seat = RULES.active_seat(s)
        if seat is None:
            break
        legal = RULES.legal_actions(s)
        choice = bots[seat].choose(RULES.view(s, seat), legal, seat)
        assert choice in legal
        RULES.apply(s, choice)
    with pytest.raises(BotSpecError, match=r"points .* or learned"):
        make_bot("ismcts:value=bogus", seed=1, game="hellenes")
