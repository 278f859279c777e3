"""The server's refusals and the engine's prompts in the reader's language (issue 17)."""

from __future__ import annotations

from muster.error_texts import TEMPLATES, translate
from muster.games.freedom.texts import prompt_in
from muster.i18n import catalog


def test_every_refusal_has_a_polish_template() -> None:
    pl = catalog("pl")
    for template in TEMPLATES:
        assert pl.get(template) is not None and pl.get(template).string, template


def test_a_refusal_is_reworded_with_its_values() -> None:
    assert translate("it is not imperial's turn (waiting for insurgent)", "pl") == \
        "to nie jest kolej: Imperium (czekamy na: Grecy)"
    assert translate("step must be between 0 and 12", "pl") == "krok musi mieścić się między 0 a 12"
    assert translate("unknown seat token", "en") == "unknown seat token"
    assert translate("too many games created from your address: try again in 12 s", "pl") == \
        "za dużo gier utworzonych z twojego adresu: spróbuj ponownie za 12 s"


def test_an_unknown_message_is_sent_as_it_is() -> None:
    assert translate("something a library said", "pl") == "something a library said"


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
            "strongest": True}
    shown = _hint_in(hint, "imperial", "freedom", "pl")
    assert shown["label"] == "zagraj kartę 30A „Ucieczka greckiej floty” za 4 PA"
    assert shown["reason"] == "niewiele zmienia na planszy" and hint["reason"] == NO_CHANGE  # the cached one stays
