"""The server's refusals and the engine's prompts in the reader's language."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from muster.error_texts import TEMPLATES, refusal, translate
from muster.games.freedom.texts import prompt_in
from muster.i18n import catalog

SRC = Path(__file__).resolve().parents[2] / "src" / "muster"


def test_every_refusal_has_a_polish_template() -> None:
    pl = catalog("pl")
    for template in TEMPLATES:
        assert pl.get(template) is not None and pl.get(template).string, template


def test_a_refusal_is_translated_from_its_message_never_from_its_words() -> None:
    turn = refusal("it is not {seat}'s turn (waiting for {active})", seat="imperial", active="insurgent")
    assert turn == "it is not imperial's turn (waiting for insurgent)"
    assert translate(turn, "pl") == "to nie jest kolej: Imperium (czekamy na: Grecy)"
    assert translate(str(turn), "pl") == str(turn)  # the same words without their message: not parsed back
    step = refusal("step must be between 0 and {n}", n=12)
    assert translate(step, "pl") == "krok musi mieścić się między 0 a 12"
    assert translate(step.message, "pl") == translate(step, "pl")  # a message kept apart from its words
    assert translate("unknown seat token", "en") == "unknown seat token"
    assert translate("unknown seat token", "pl") != "unknown seat token"  # a fixed sentence is its own id
    assert translate(refusal("too many games created from your address: try again in {n} s", n=12), "pl") == \
        "za dużo gier utworzonych z twojego adresu: spróbuj ponownie za 12 s"


def test_an_unknown_message_is_sent_as_it_is() -> None:
    assert translate("something a library said", "pl") == "something a library said"


def test_a_long_refusal_is_cut_and_still_translated() -> None:
    from muster.server.errors import MAX_ERROR_TEXT, ApiError

    error = ApiError(400, "malformed", refusal("bad bot {bot}: {error}", bot="x", error="y" * 2 * MAX_ERROR_TEXT))
    assert len(error.message) == MAX_ERROR_TEXT and error.message.endswith("…")
    polish = error.to_json("pl")["error"]
    assert len(polish) == MAX_ERROR_TEXT and not polish.startswith("bad bot")


def test_every_refusal_made_in_the_code_has_a_template() -> None:
    """Each ``refusal(template, ...)`` names one of :data:`TEMPLATES` (so the catalogs translate it)."""
    made = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "refusal" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    made.add(first.value)
    assert len(made) > 25 and made <= set(TEMPLATES), made - set(TEMPLATES)


def test_reword_is_gone_and_nothing_imports_it() -> None:
    """No module rewords English words by parsing them back into a template: ``muster.reword`` is gone."""
    assert importlib.util.find_spec("muster.reword") is None
    for path in SRC.rglob("*.py"):
        text = path.read_text("utf-8")
        assert "muster.reword" not in text and "Templates(" not in text, path


def test_event_prompts_render_from_their_message() -> None:
    """The rules word a prompt in English and keep its message: the reader's language renders the message, and
    plain English words are never parsed back into one."""
    from muster.games.freedom.rules.common import said

    view: dict[str, object] = {"stack": [{"kind": "ev_remove"}]}
    prompt = said("Remove an {side} unit from {where} ({n} left).", side="imperial", where="the mainland", n=2)
    assert prompt == "Remove an Imperial unit from the mainland (2 left)."
    assert prompt_in(view, "insurgent", prompt, "pl") == "Usuń jednostkę (strona: Imperium; skąd: ląd; zostało: 2)."
    attack = said("Free attack ({n} left, {bonus} to the roll): choose the attacker, or stop.", n=1, bonus=1)
    assert attack == "Free attack (1 left, +1 to the roll): choose the attacker, or stop."
    assert prompt_in(view, "insurgent", attack, "pl") == \
        "Darmowy atak (zostało: 1, +1 do rzutu): wybierz atakującego albo zakończ."
    assert prompt_in(view, "insurgent", str(prompt), "pl") != prompt_in(view, "insurgent", prompt, "pl")


def test_hint_reasons_and_labels_in_polish() -> None:
    from muster.games.freedom.analysis.texts import NO_CHANGE, TERM_GAINS, reason_in
    from muster.server.hints_routes import _hint_in

    reason = TERM_GAINS["wall"]["imperial"] + "; Insurgent Morale 2 is one blow from collapse"
    assert reason_in(reason, "pl") == \
        "kruszy mur albo zdobywa na nim przyczółek; Grecy: morale 2, o jeden cios od załamania"
    assert reason_in(NO_CHANGE, "en") == NO_CHANGE
    hint = {"action": ["ap", 30], "label": "play 30A Fleet's Departure for 4 AP", "chance": 0.5, "reason": NO_CHANGE,
            "strongest": True, "message": {"m": "play {card} for {n} AP", "a": {"card": 30, "n": 4}}}
    shown = _hint_in(hint, "imperial", "freedom", "pl")
    assert shown["label"] == "zagraj kartę 30A „Ucieczka greckiej floty” za 4 PA"
    assert shown["message"] == hint["message"]
    # a label that came without its message stays in its words: nothing is read back out of the English
    assert _hint_in({**hint, "message": None}, "imperial", "freedom", "pl")["label"] == hint["label"]
    assert shown["reason"] == "niewiele zmienia na planszy" and hint["reason"] == NO_CHANGE  # the cached one stays
