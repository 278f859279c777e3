"""The win-probability estimate, hints and ``muster analyze``: only what a seat may know, and the files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muster.analysis.consent import HintConsent, HintsRefusedError
from muster.cli.main import app
from muster.core import Game, get_rules
from muster.games.freedom.analysis.advice import hints
from muster.games.freedom.analysis.winprob import imperial_chance, seat_chance, state_probability
from muster.games.freedom.bots.features import is_card_point
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.texts import names
from muster.i18n import render

RULES = get_rules("freedom")


def _card_point(seed: int, cards: int) -> Game:
    """A game played at random until a side is about to choose its ``cards``-th card."""
    game = Game(RULES, seed)
    chooser = random.Random(seed)
    seen = 0
    while game.active_seat is not None:
        seat = game.active_seat
        if is_card_point(game.view(seat)):
            seen += 1
            if seen == cards:
                return game
        game.apply(chooser.choice(game.legal_actions()))
    raise AssertionError("the game ended first")


def _scrambled(game: Game, seat: str, seed: int) -> object:
    """Another true state the seat cannot tell apart: the opponent's hand and the piles dealt anew."""
    other = RULES.determinize(game.view(seat), seat, seed)
    assert RULES.view(other, seat) == game.view(seat)
    assert other.hands != game.state.hands or other.decks != game.state.decks
    return other


@pytest.mark.parametrize("seat", [IMPERIAL, INSURGENT])
def test_estimate_ignores_hidden_information(seat: str) -> None:
    game = _card_point(11, 9)
    view = game.view(seat)
    estimates = {round(state_probability(RULES.determinize(view, seat, k)), 12) for k in range(6)}
    assert len(estimates) == 1
    scrambled = _scrambled(game, seat, 1234)
    assert imperial_chance(RULES.view(scrambled, seat), seat) == imperial_chance(view, seat)
    assert 0.0 < imperial_chance(view, seat) < 1.0
    mine = seat_chance(view, seat)
    assert mine == pytest.approx(imperial_chance(view, seat) if seat == IMPERIAL else 1 - imperial_chance(view, seat))


def test_hints_ignore_hidden_information() -> None:
    game = _card_point(4, 6)
    seat = game.active_seat
    assert seat is not None
    first = [a.to_json() for a in hints(game.view(seat), game.legal_actions(), seat)]
    scrambled = _scrambled(game, seat, 99)
    again = [a.to_json() for a in hints(RULES.view(scrambled, seat), RULES.legal_actions(scrambled), seat)]
    assert first == again
    assert 1 <= len(first) <= 3
    assert first[0]["strongest"] is True
    assert all(0.0 <= a["chance"] <= 1.0 and a["reason"] for a in first)


def test_hints_refused_between_two_people_until_both_agree() -> None:
    consent = HintConsent.at_creation((IMPERIAL, INSURGENT), IMPERIAL, hints=True)
    for seat in (IMPERIAL, INSURGENT):
        with pytest.raises(HintsRefusedError):
            consent.check(seat)
    assert not consent.to_json()["hinted"]
    consent.accept(INSURGENT)
    consent.check(IMPERIAL)
    consent.check(INSURGENT)
    assert consent.to_json()["hinted"]


def test_hints_off_unless_set_at_creation() -> None:
    consent = HintConsent.at_creation((IMPERIAL, INSURGENT), IMPERIAL, hints=False)
    with pytest.raises(ValueError):
        consent.accept(INSURGENT)  # nothing was proposed
    with pytest.raises(HintsRefusedError):
        consent.check(IMPERIAL)
    solo = HintConsent.at_creation((INSURGENT,), INSURGENT, hints=True)  # against a bot: one person decides
    solo.check(INSURGENT)
    with pytest.raises(HintsRefusedError):
        solo.check(IMPERIAL)  # the bot's seat


def test_analyze_writes_both_files(tmp_path: Path) -> None:
    game = Game(RULES, 5)
    chooser = random.Random(5)
    while game.active_seat is not None:
        game.apply(chooser.choice(game.legal_actions()))
    save = tmp_path / "game.json"
    save.write_text(game.dumps(), encoding="utf-8")
    result = CliRunner().invoke(app, ["analyze", str(save), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "analysis.json").read_text())
    assert (tmp_path / "out" / "win-probability.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data["win_probability"]) == len(data["cards"]) > 10
    assert all(0.0 <= p <= 1.0 for p in data["win_probability"])
    assert data["win_probability"][-1] == (1.0 if game.outcome and game.outcome.winner == IMPERIAL else 0.0)
    assert 1 <= len(data["turning_points"]) <= 3
    for tp in data["turning_points"]:
        assert tp["played"] and tp["strongest"]["label"]
        assert 0.0 <= tp["strongest"]["estimate"] <= 1.0
    # the same game read in Polish: the plot's words (title, axes, turning points) in the reader's language
    polish = CliRunner().invoke(app, ["analyze", str(save), "--out", str(tmp_path / "pl"), "--lang", "pl"])
    assert polish.exit_code == 0, polish.output
    assert (tmp_path / "pl" / "win-probability.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # ...and the terminal's turning points name the cards played and the strongest choices in Polish, rendered
    # from the messages the analysis keeps beside their English words
    output = " ".join(polish.output.split())
    for tp in data["turning_points"]:
        played = data["cards"][tp["card"] - 1]
        assert played["message"] and tp["strongest"]["message"]
        polish_played = render(played["message"], names("pl"))
        assert polish_played != played["label"]
        assert polish_played in output and played["label"] not in output


def test_analyze_refuses_a_bad_file(tmp_path: Path) -> None:
    save = tmp_path / "bad.json"
    save.write_text("{not json", encoding="utf-8")
    result = CliRunner().invoke(app, ["analyze", str(save), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "Cannot load" in result.output
    assert not (tmp_path / "out").exists()


def test_terminal_hint_command() -> None:
    import io

    from rich.console import Console

    from muster.ai import make_bot
    from muster.tui.session import Session

    game = _card_point(8, 3)
    seat = game.active_seat
    assert seat is not None
    other = INSURGENT if seat == IMPERIAL else IMPERIAL
    console = Console(file=io.StringIO(), width=120)
    players = {seat: None, other: make_bot("random", seed=1, game="freedom")}
    off = Session(game, players, console)
    off.handle(seat, "hint")
    assert "off" in str(off.message)
    on = Session(game, players, console, hints=HintConsent.at_creation((seat,), seat, hints=True))
    on.handle(seat, "hint")
    text = str(on.message)
    assert text.startswith("Hints") and "strongest bot's choice" in text
    assert len(text.splitlines()) == 4
    two = HintConsent.at_creation((IMPERIAL, INSURGENT), IMPERIAL, hints=True)
    refused = Session(game, {IMPERIAL: None, INSURGENT: None}, console, hints=two)
    refused.handle(seat, "hint")
    assert "agreement" in str(refused.message)


def test_estimate_file_refuses_another_format_or_features() -> None:
    from importlib import resources

    from muster.games.freedom.analysis.winprob import FORMAT_VERSION, Calibration
    from muster.games.freedom.bots.features import FEATURES

    data = json.loads(resources.files("muster.games.freedom.analysis").joinpath("data/win_probability.json")
                      .read_text())
    assert data["version"] == FORMAT_VERSION and tuple(data["features"]) == FEATURES
    Calibration.from_json(data)
    for bad in ({**data, "version": FORMAT_VERSION - 1}, {**data, "features": data["features"][:-1]},
                {**data, "rounds": [{**data["rounds"][0], "coef": data["rounds"][0]["coef"][:-1]}]}):
        with pytest.raises(ValueError):
            Calibration.from_json(bad)


def test_estimate_reads_the_public_card_record() -> None:
    """The estimate reads the card clock of the round and the discard piles, which both sides see."""
    from muster.games.freedom.bots.features import FEATURES, features

    game = _card_point(11, 9)
    x = features(RULES.determinize(game.view(IMPERIAL), IMPERIAL, 0))
    assert len(x) == len(FEATURES)
    assert x[FEATURES.index("round_progress")] > 0


def test_a_turning_point_never_advises_a_worse_choice_for_the_advised_seat() -> None:
    """By its own estimate, the choice recommended at a turning point is never worse for the side advised than
    the move played; and the verdict says whether the swing was the choice's doing or luck's."""
    from muster.games.freedom.analysis.postgame import curve, turning_points

    seed = 9
    game = Game(RULES, seed)
    chooser = random.Random(seed)
    while game.active_seat is not None:
        game.apply(chooser.choice(game.legal_actions()))
    points = turning_points(game, curve(game)["cards"], count=5)
    assert points
    for tp in points:
        best, played = tp["strongest"]["estimate"], tp["played_estimate"]
        # estimates are the Imperial side's chance: the Insurgent wants it lower
        assert (best >= played) if tp["seat"] == IMPERIAL else (best <= played), tp
        if not tp["better"]:
            assert tp["strongest"]["action"] == game.actions[tp["step"]].to_json()
        expected_move = abs(tp["played_estimate"] - tp["before"])
        assert tp["luck"] == (abs(tp["after"] - tp["played_estimate"]) > expected_move)
        assert ("luck" in tp["note"]) == tp["luck"]


def test_an_analysis_reports_its_progress_from_the_curve_on_and_ends_at_all_done(tmp_path: Path) -> None:
    from muster.games.freedom.analysis.postgame import CURVE_SHARE, analyze_save

    game = Game(RULES, 5)
    chooser = random.Random(5)
    while game.active_seat is not None:
        game.apply(chooser.choice(game.legal_actions()))
    heard: list[float] = []
    analyze_save(game.dumps(), tmp_path / "out", progress=heard.append)
    assert heard == sorted(heard) and heard[-1] == 1.0
    # the replay of the curve is heard too, not only its end and the turning points
    assert len([share for share in heard if share < CURVE_SHARE]) >= 2
    # and a turning point is heard before its last part: the search, then the two choices' estimates
    assert len([share for share in heard if share > CURVE_SHARE]) > len(analyze_save(
        game.dumps(), tmp_path / "again")["turning_points"])


def test_the_analysis_asks_the_strongest_level_without_its_cpu_budget() -> None:
    from muster.games.freedom.analysis.advice import strongest_spec
    from muster.games.freedom.module import MODULE

    assert "cpu=" in MODULE.levels["strongest"].spec  # the level thinks within a budget…
    # …but the analysis asks what it plays where its whole search fits, the same on every install and load
    assert "cpu=" not in strongest_spec() and strongest_spec().startswith("ismcts:")
