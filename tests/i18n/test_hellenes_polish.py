"""Hellenes in Polish: its own catalog domain, a language-neutral log, Polish names, cards, choices, prompts."""

from __future__ import annotations

import json
import random

import pytest

from muster.core import Game
from muster.core.registry import get_rules
from muster.games.hellenes import texts
from muster.games.hellenes.datafiles import DataError, cards, game_map
from muster.games.hellenes.terminal import screen
from muster.i18n import message_of, translator
from muster.i18n_tools import extract_domain


def _played(seed: int = 5, steps: int = 400) -> tuple[object, object]:
    rules = get_rules("hellenes")
    state = rules.setup(seed, {"years": "1"})
    rnd = random.Random(seed)
    for _ in range(steps):
        if rules.active_seat(state) is None:
            break
        rules.apply(state, rnd.choice(rules.legal_actions(state)))
    return rules, state


def test_the_log_is_stored_language_neutral_and_read_in_either_language() -> None:
    rules, state = _played()
    assert all(isinstance(e, dict) and isinstance(e["m"], str) for e in state.log)
    en, pl = rules.log(state), rules.log(state, "pl")
    assert len(en) == len(pl) == len(state.log)
    assert en[1] == "— New Year 431 BC —" and pl[1] == "— Nowy Rok 431 p.n.e. —"
    assert any(line.startswith("— Wiosna 431 p.n.e.") for line in pl)
    assert any("Spartanie" in line or "Ateńczycy" in line for line in pl)
    assert not any("{" in line for line in en + pl)  # every placeholder filled
    assert json.loads(json.dumps(rules.to_json(state)))["log"] == state.log  # JSON as it is


def test_every_message_the_rules_log_is_in_the_catalog() -> None:
    known = set(extract_domain("hellenes")) | set(extract_domain("muster"))
    for seed in (1, 5, 9):
        _, state = _played(seed, steps=2000)
        args = [a for e in state.log for v in e["a"].values() for a in (v if isinstance(v, list) else [v])]
        ids = {e["m"] for e in state.log} | {a["m"] for a in args if isinstance(a, dict) and "m" in a}
        assert ids <= known, ids - known


def test_an_older_game_with_english_lines_still_loads() -> None:
    rules, state = _played(steps=40)
    data = rules.to_json(state)
    data["log"] = ["Hellenes 431: 1 Year(s) from 431 BC.", "Sparta takes Plataea.", *data["log"]]
    old = rules.from_json(data)
    assert rules.log(old, "pl")[:2] == ["Hellenes 431: 1 Year(s) from 431 BC.", "Sparta takes Plataea."]
    with pytest.raises(Exception, match="message id"):
        rules.from_json({**data, "log": [{"a": {}}]})


def test_greek_places_in_their_polish_forms() -> None:
    assert texts.city_name("attica", "pl") == "Ateny" and texts.city_name("corinthia", "pl") == "Korynt"
    assert texts.city_name("boeotia", "pl") == "Teby" and texts.city_name("lesbos", "pl") == "Mitylena"
    assert texts.area_name("boeotia", "pl") == "Beocja" and texts.area_name("attica", "pl") == "Attyka"
    assert texts.area_name("saronic", "pl") == "Zatoka Sarońska"
    assert set(texts.polish_names()["areas"]) == set(game_map().names)


def test_every_card_has_a_polish_face() -> None:
    assert set(texts.polish_cards()) == set(cards())
    assert texts.card_face(16, "pl")["name"] == "Wyrocznia delficka"
    assert texts.card_label(10, "pl") == "#10 Bunt sprzymierzeńców (1 akcja, tylko Sparta)"
    assert texts.card_label(10, "en") == "#10 Revolt of the Allies (1 Action, Sparta only)"


def test_a_polish_data_file_missing_a_card_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = texts._read

    def short(name: str) -> object:
        data = real(name)
        if name == "cards_pl.json":
            data["cards"].pop("7")
        return data

    texts.polish_cards.cache_clear()
    monkeypatch.setattr(texts, "_read", short)
    try:
        with pytest.raises(DataError, match=r"missing \[7\]"):
            texts.polish_cards()
    finally:
        texts.polish_cards.cache_clear()


def test_every_choice_and_prompt_of_random_games_reads_polish() -> None:
    rules = get_rules("hellenes")
    for seed in (1, 2):
        game = Game(rules, seed=seed, options={"years": "1"})
        rnd = random.Random(seed)
        kinds: set[str] = set()
        while game.active_seat is not None and len(game.actions) < 600:
            seat = game.active_seat
            view = game.view(seat)
            kind = view["stack"][-1]["kind"]
            prompt = texts.said_in(game.prompt, "pl")
            assert message_of(game.prompt) is not None and prompt != game.prompt, (kind, prompt)
            for action, label in game.labelled_actions():
                # every choice keeps its message: nothing is rebuilt from the English words
                assert message_of(label) is not None, (kind, action, label)
                assert "{" not in texts.said_in(label, "pl"), (kind, action, label)
            kinds.add(kind)
            game.apply(rnd.choice(game.legal_actions()), seat)
        assert {"commit", "actions", "group"} <= kinds


def test_the_terminal_screen_in_polish() -> None:
    from rich.console import Console

    rules = get_rules("hellenes")
    game = Game(rules, seed=3, options={"years": "1"})
    seat = game.active_seat
    assert seat is not None
    view = game.view(seat)
    labelled = [(a, texts.said_in(label, "pl")) for a, label in game.labelled_actions()]
    console = Console(width=140, record=True)
    console.print(screen(view, seat, texts.said_in(game.prompt, "pl"), labelled,
                         game.log("pl"), 2, lang="pl"))
    out = console.export_text()
    assert "Grecja i Morze Egejskie" in out and "Prestiż" in out and "Twój wybór" in out
    assert "Obszar" in out and "Attyka" in out and "Nowy Rok 431" in out


def test_the_bot_levels_describe_hellenes_in_polish() -> None:
    from muster.core.registry import game_module
    from muster.games.freedom.web import LEVEL_WORDS as FREEDOM_WORDS
    from muster.games.hellenes.web import LEVEL_WORDS

    levels = game_module("hellenes").levels
    assert {play.description for play in levels.values()} - set(FREEDOM_WORDS) == set(LEVEL_WORDS)
    assert all(translator("pl").gettext(w) != w for w in LEVEL_WORDS)


def test_the_hellenes_catalog_translates_plurals() -> None:
    tr = translator("pl")
    assert [tr.nfmt("{n} Action", "{n} Actions", n) for n in (1, 2, 5)] == ["1 akcja", "2 akcje", "5 akcji"]


def test_the_web_state_message_reads_polish() -> None:
    from muster.server.hub import SeatInfo
    from muster.server.views import seat_payload

    game = Game(get_rules("hellenes"), seed=7, options={"years": "1"})
    seats = {s: SeatInfo(s, "human", None) for s in ("athens", "sparta")}
    rnd = random.Random(3)
    while game.view(game.active_seat or "athens")["season"] < 0:
        seat = game.active_seat
        assert seat is not None
        game.apply(rnd.choice(game.legal_actions()), seat)
    seat = game.active_seat
    assert seat is not None
    pl = seat_payload(game, "g", 1, seat, seats, "pl")
    en = seat_payload(game, "g", 1, seat, seats, "en")
    assert pl["phase"] == "Wiosna 431 p.n.e." and en["phase"] == "Spring 431 BC"
    assert pl["prompt"].startswith(("Ateny:", "Sparta:")) and pl["help"] and pl["help"] != en["help"]
    assert all(p["label"] != e["label"] for p, e in zip(pl["legal"], en["legal"], strict=True))
    # one log: the same entries, each worded in the reader's language, and no English copy beside it
    assert "log_en" not in pl and [(e["m"], e["a"]) for e in pl["log"]] == [(e["m"], e["a"]) for e in en["log"]]
    assert any(p["t"] != e["t"] for p, e in zip(pl["log"], en["log"], strict=True))


OWNER_CHOICES = {"allocate", "retreat_to", "fortify_pick", "attrition_loss", "forced_take"}
"""The owner's choices of Hellenes rules revision 2 (hit/rout ties, retreat, fortify, Attrition, forced march)."""

REVISION_3 = {"battle_pick", "sortie"}
"""Decisions of Hellenes rules revision 3 that random games reach quickly (the order of Forces, rarer, is
checked in Polish by ``tests/hellenes/test_rule_revision_3.py``)."""


def assert_first_sightings_read_in_polish(kinds: set[str], seeds: int, english: tuple[str, ...],
                                          question: bool = False) -> None:
    """Play random games until every decision kind in ``kinds`` has come up; at its first sighting its prompt
    must be reworded in Polish (with a question mark if ``question``) and no label may keep an English word."""
    rules = get_rules("hellenes")
    seen: set[str] = set()
    for seed in range(seeds):
        state = rules.setup(seed, {})
        rnd = random.Random(seed)
        while rules.active_seat(state) is not None and seen != kinds:
            seat = rules.active_seat(state)
            view = rules.view(state, seat)
            stack = view.get("stack") or []
            kind = stack[-1].get("kind") if stack else None
            if kind in kinds and kind not in seen:
                seen.add(kind)
                prompt = texts.said_in(rules.prompt(state), "pl")
                assert prompt != rules.prompt(state), kind
                assert "?" in prompt or not question, kind
                for action in rules.legal_actions(state):
                    label = texts.said_in(rules.label(state, action), "pl")
                    assert not any(w in label for w in english), (kind, label)
            rules.apply(state, rnd.choice(rules.legal_actions(state)))
        if seen == kinds:
            break
    assert seen == kinds


def test_the_owner_choices_read_in_polish() -> None:
    # every decision kind of rules revision 2 has a Polish prompt and Polish labels (no English words left)
    assert_first_sightings_read_in_polish(
        OWNER_CHOICES, 80, ("loses", "routed", "inside", "retreat", "march", "stay"))


def test_the_revision_3_choices_read_in_polish() -> None:
    # the order of equal battles (6.0) and Sorties (8.3): Polish prompts and labels, no English words left
    assert_first_sightings_read_in_polish(
        REVISION_3, 20, ("battle", "Sortie", "block", "first", "Season"), question=True)
