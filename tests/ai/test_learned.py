"""The learned value and play model, the belief over the opponent's hand, and the search options that use them."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from muster.ai import BotSpecError, make_bot
from muster.core import get_rules
from muster.games.freedom.analysis.train import brier, fit_play, fit_value, log_loss
from muster.games.freedom.bots import belief as belief_mod
from muster.games.freedom.bots import learned
from muster.games.freedom.bots.belief import Belief, phase_plays
from muster.games.freedom.bots.learned import INPUTS, LearnedModel, WeightsMismatchError, load, weights_name
from muster.games.freedom.constants import IMPERIAL, INSURGENT, other

RULES = get_rules("freedom")


def _card_turns(seed: int, count: int) -> list[tuple[object, dict[str, list[int]]]]:
    """Card turns of a Heuristic game (the state, and per side the cards it played this phase so far)."""
    state = RULES.setup(seed, {"quiet": "1"})
    bot = make_bot("heuristic", seed=seed, game="freedom")
    out: list[tuple[object, dict[str, list[int]]]] = []
    plays: dict[str, list[int]] = {IMPERIAL: [], INSURGENT: []}
    last_round = state.round
    while RULES.outcome(state) is None and len(out) < count:
        seat = RULES.active_seat(state)
        assert seat is not None
        if state.round != last_round or (state.played[IMPERIAL] + state.played[INSURGENT]) == 0:
            plays = {IMPERIAL: [], INSURGENT: []}
            last_round = state.round
        legal = RULES.legal_actions(state)
        card_turn = bool(state.stack) and state.stack[-1]["kind"] == "card_turn"
        if card_turn:
            out.append((RULES.clone(state), {k: list(v) for k, v in plays.items()}))
        action = legal[0] if len(legal) == 1 else bot.choose(RULES.view(state, seat), legal, seat)
        if card_turn:
            plays[seat].append(int(action.arg))  # type: ignore[arg-type]
        RULES.apply(state, action)
    return out


# --- the shipped weights ------------------------------------------------------------------------------------

def test_the_weights_ship_under_the_rules_and_action_space_versions() -> None:
    rules_version, actions = learned.versions()
    name = weights_name()
    assert rules_version in name and actions in name
    assert resources.files("muster.games.freedom").joinpath("data", name).is_file()
    model = load()
    assert model.w1.shape[0] == len(INPUTS)


def test_weights_for_other_rules_or_inputs_are_refused() -> None:
    rules_version, actions = learned.versions()
    data = json.loads(resources.files("muster.games.freedom").joinpath("data", weights_name()).read_text())
    LearnedModel.from_json(data, rules_version, actions)
    with pytest.raises(WeightsMismatchError):
        LearnedModel.from_json(data, rules_version + "-next", actions)
    with pytest.raises(WeightsMismatchError):
        LearnedModel.from_json(data, rules_version, actions + "-next")
    with pytest.raises(WeightsMismatchError):
        LearnedModel.from_json({**data, "inputs": data["inputs"][:-1]}, rules_version, actions)


def test_a_build_without_weights_for_its_versions_refuses_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned, "versions", lambda: ("r999", "freedom-actions-999"))
    load.cache_clear()
    try:
        with pytest.raises(WeightsMismatchError, match="r999"):
            load()
        with pytest.raises(BotSpecError):
            make_bot("ismcts:value=learned", seed=1, game="freedom")
    finally:
        monkeypatch.undo()
        load.cache_clear()


def test_the_learned_value_predicts_better_than_the_hand_written_one() -> None:
    # What training measured on games it did not fit (every fifth seed), stored with the weights.
    report = load().meta["validation"]
    assert report["learned"]["log_loss"] < report["hand_written_squashed"]["log_loss"]
    assert report["learned"]["brier"] < report["hand_written_squashed"]["brier"]
    assert report["learned"]["brier"] < report["base_rate"]["brier"]


def test_the_learned_value_reads_no_hidden_card() -> None:
    model = load()
    for state, _plays in _card_turns(5, 12)[::3]:
        seat = RULES.active_seat(state)
        assert seat is not None
        view = RULES.view(state, seat)
        values = {round(model.win(RULES.determinize(view, seat, k), seat), 12) for k in range(4)}
        assert len(values) == 1
        assert 0.0 < values.pop() < 1.0


def test_a_finished_game_is_worth_its_result() -> None:
    state = RULES.setup(1, {"quiet": "1"})
    state.result = {"winner": INSURGENT, "reason": "test"}
    assert load().win(state, INSURGENT) == 1.0 and load().win(state, IMPERIAL) == 0.0


# --- training --------------------------------------------------------------------------------------------

def test_the_value_fit_learns_a_separable_rule() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(400, len(INPUTS)))
    y = (x[:, 0] + 0.5 * x[:, 3] > 0).astype(float)
    model, snaps = fit_value(x, y, hidden=8, steps=200, seed=0, every=100)
    p = 1 / (1 + np.exp(-model.logit_x(x)))
    assert log_loss(p, y) < 0.3 and brier(p, y) < 0.08
    assert [s for s, _ in snaps] == [100, 200]
    again, _ = fit_value(x, y, hidden=8, steps=200, seed=0)
    assert np.array_equal(again.w1, model.w1)  # reproducible


def test_the_play_model_ranks_the_cards_a_side_prefers() -> None:
    rng = random.Random(3)
    choices = []
    for _ in range(300):
        hand = sorted(rng.sample(range(1, 11), 5))
        card = min(hand, key=lambda c: (c != 7, c))  # always 7 if held, else the lowest
        choices.append((IMPERIAL, hand, card))
    play = fit_play(choices)[IMPERIAL]
    assert max(play, key=lambda c: play[c]) == 7
    assert play[1] > play[10]


# --- the belief -------------------------------------------------------------------------------------------

def test_the_plays_of_this_phase_are_read_from_a_view() -> None:
    turns = _card_turns(11, 60)
    checked = 0
    for state, plays in turns:
        seat = RULES.active_seat(state)
        assert seat is not None
        assert phase_plays(RULES.view(state, seat)) == plays
        checked += bool(plays[IMPERIAL] or plays[INSURGENT])
    assert checked > 20


def test_a_hand_of_cards_the_opponent_would_have_played_is_unlikely() -> None:
    state, _plays = next((s, p) for s, p in _card_turns(11, 60) if len(p[other(RULES.active_seat(s) or "")]) >= 2)
    seat = RULES.active_seat(state)
    assert seat is not None
    model = load()
    keen = replace(model, play={other(seat): {c: (3.0 if c % 2 else -3.0) for c in range(1, 101)}})
    b = Belief(RULES.view(state, seat), seat, keen)
    assert b.informed
    rng = random.Random(0)
    hands = [b.uniform_hand(rng) for _ in range(200)]
    odd = [sum(c % 2 for c in h) for h in hands]
    most, fewest = hands[odd.index(max(odd))], hands[odd.index(min(odd))]
    assert b.log_weight(most) < b.log_weight(fewest)
    drawn = [sum(c % 2 for c in b.draw(rng)) for _ in range(200)]
    assert sum(drawn) < sum(odd)  # the belief holds fewer of the cards the opponent was keen on


def test_a_dealt_hand_keeps_everything_the_seat_sees() -> None:
    rng = random.Random(2)
    for state, _plays in _card_turns(13, 40)[5::7]:
        seat = RULES.active_seat(state)
        assert seat is not None
        view = RULES.view(state, seat)
        det = RULES.determinize(view, seat, 4)
        b = Belief(view, seat, load())
        hand = b.draw(rng)
        b.deal(det, hand, rng)
        assert sorted(det.hands[other(seat)]) == sorted(hand)
        assert RULES.view(det, seat) == view
        assert RULES.legal_actions(det) == RULES.legal_actions(state)


def test_the_true_hand_is_scored_against_uniform_hands() -> None:
    state, _plays = next((s, p) for s, p in _card_turns(11, 60) if p[other(RULES.active_seat(s) or "")])
    seat = RULES.active_seat(state)
    assert seat is not None
    b = Belief(RULES.view(state, seat), seat, load())
    score = b.loglik_vs_uniform(state.hands[other(seat)], random.Random(0), samples=500)  # type: ignore[attr-defined]
    assert np.isfinite(score)
    uninformed = Belief(RULES.view(RULES.setup(3, {"quiet": "1"}), IMPERIAL), IMPERIAL, load())
    assert not uninformed.informed and uninformed.loglik_vs_uniform([], random.Random(0)) == 0.0
    assert belief_mod.CANDIDATES >= 2


# --- the search options ------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["ismcts:value=bad", "ismcts:ap_rank=yes", "ismcts:belief=2",
                                  "ismcts:tree=actions,value=learned"])
def test_bad_options_are_refused(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, seed=1, game="freedom")


@pytest.mark.parametrize("options", ["value=learned,belief=on,ap_rank=play", "value=blend", "value=prob"])
def test_the_new_search_plays_a_legal_card_reproducibly(options: str) -> None:
    state = next(s for s, p in _card_turns(17, 30) if p[IMPERIAL] and p[INSURGENT])
    seat = RULES.active_seat(state)
    assert seat is not None
    view, legal = RULES.view(state, seat), RULES.legal_actions(state)
    spec = f"ismcts:iterations=4,{options}"
    first = make_bot(spec, seed=9, game="freedom").choose(view, legal, seat)
    assert first in legal
    assert make_bot(spec, seed=9, game="freedom").choose(view, legal, seat) == first


def test_leaves_are_chances_with_a_probability_value() -> None:
    state = next(s for s, _p in _card_turns(17, 10))
    seat = RULES.active_seat(state)
    assert seat is not None
    for options, low, high in (("value=prob", 0.0, 1.0), ("value=learned", 0.0, 1.0), ("value=blend", 0.0, 1.0)):
        bot = make_bot(f"ismcts:iterations=2,{options}", seed=1, game="freedom")
        det = RULES.determinize(RULES.view(state, seat), seat, 1)
        first = RULES.legal_actions(det)[0]
        v = bot._playout_value(det, first, seat)  # type: ignore[attr-defined]
        assert low <= v <= high


def test_ranking_an_ap_card_by_its_plan_changes_only_ap_scores() -> None:
    state = next(s for s, _p in _card_turns(17, 10))
    seat = RULES.active_seat(state)
    assert seat is not None
    legal = RULES.legal_actions(state)
    bot = make_bot("ismcts:ap_rank=play", seed=1, game="freedom")
    det = RULES.determinize(RULES.view(state, seat), seat, 1)
    scores = bot._planner.scores(det, legal, seat)  # type: ignore[attr-defined]
    ranked = bot._rank_ap(det, legal, scores, seat)  # type: ignore[attr-defined]
    for a, before, after in zip(legal, scores, ranked, strict=True):
        if a.verb != "ap":
            assert before == after
    assert any(b != a for a, b in zip(scores, ranked, strict=True))


# --- the learned value alone (the ``learned`` bot) -----------------------------------------------------------

def _start_model(states: list[object]) -> LearnedModel:
    """The value at training step 0: the hand-written evaluation squashed (its inputs' spread from ``states``)."""
    x = np.asarray([learned.inputs(s) for s in states])  # type: ignore[arg-type]
    _model, snaps = fit_value(x, np.zeros(len(x)), hidden=4, steps=0, seed=0, at=(0,))
    assert [step for step, _ in snaps] == [0]
    return snaps[0][1]


def test_at_step_zero_the_learned_points_are_the_hand_written_points() -> None:
    # The learned value starts as the evaluation divided by POINTS_PER_LOGIT; read back as points it must give
    # the evaluation again, so the bot's AP prices and card biases keep their meaning.
    from muster.games.freedom.bots.evaluation import evaluate
    from muster.games.freedom.bots.features import BOT_WEIGHTS

    states = [s for s, _p in _card_turns(23, 25)]
    start = _start_model(states)
    for s in states:
        points = evaluate(s, BOT_WEIGHTS)  # type: ignore[arg-type]
        if abs(points) < learned.POINTS_CAP:
            assert start.points(s, IMPERIAL) == pytest.approx(points, abs=1e-6)  # type: ignore[arg-type]
            assert start.points(s, INSURGENT) == pytest.approx(-points, abs=1e-6)  # type: ignore[arg-type]


def test_a_finished_game_outranks_any_learned_position() -> None:
    state = RULES.setup(1, {"quiet": "1"})
    assert abs(load().points(state, IMPERIAL)) <= learned.POINTS_CAP
    state.result = {"winner": IMPERIAL, "reason": "test"}
    assert load().points(state, IMPERIAL) > learned.POINTS_CAP and load().points(state, INSURGENT) < -learned.POINTS_CAP


def test_the_learned_bot_is_the_heuristic_scoring_with_the_learned_value() -> None:
    state = next(s for s, p in _card_turns(29, 30) if p[IMPERIAL])
    seat = RULES.active_seat(state)
    assert seat is not None
    view, legal = RULES.view(state, seat), RULES.legal_actions(state)
    alone = make_bot("learned", seed=4, game="freedom")
    assert alone.name == "learned"
    first = alone.choose(view, legal, seat)
    assert first in legal
    assert make_bot("heuristic:value=learned", seed=4, game="freedom").choose(view, legal, seat) == first
    det = RULES.determinize(view, seat, 1)
    by_points = make_bot("heuristic", seed=4, game="freedom").scores(det, legal, seat)  # type: ignore[attr-defined]
    by_value = alone.scores(det, legal, seat)  # type: ignore[attr-defined]
    assert by_points != by_value  # the shipped value is not the hand-written evaluation


@pytest.mark.parametrize("spec", ["heuristic:value=bad", "learned:value=bad", "learned:nodes=x"])
def test_bad_learned_bot_options_are_refused(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, seed=1, game="freedom")


def test_the_strength_curve_counts_wins_per_step_and_reuses_games(tmp_path: Path) -> None:
    from muster.games.freedom.analysis import train

    weights = {0: '{"a": 1}', 10: '{"b": 2}'}
    rows = []
    for step, text in weights.items():
        for seed in (train.STRENGTH_SEEDS, train.STRENGTH_SEEDS + 1):
            for seat in (IMPERIAL, INSURGENT):
                winner = seat if step == 10 or seat == IMPERIAL else other(seat)
                rows.append({"step": step, "seed": seed, "learned": seat, "winner": winner,
                             "weights": train._digest(text), "rules_version": "x"})
    stream = tmp_path / "strength.jsonl"
    stream.write_text("".join(json.dumps(r) + "\n" for r in rows))
    # every game is on file with the very same weights, so nothing is played (these weights could not play)
    got = train.strength_games(weights, 2, stream, workers=1)
    assert len(got) == 8
    curve = train.strength_curve(got)
    assert [(p["step"], p["games"], p["wins"]) for p in curve] == [(0, 4, 2), (10, 4, 4)]
    assert curve[0]["as"] == {"imperial": "2/2", "insurgent": "0/2"}
    assert curve[1]["low"] < 1.0 == curve[1]["high"]
    train.plot_strength(curve, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").stat().st_size > 1000
