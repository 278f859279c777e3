"""Both catalogs are complete, hold nothing unused, and the log renders in either language."""

from __future__ import annotations

import json
import random
import re

import pytest
from babel.messages.pofile import read_po

from muster.core.registry import game_module, game_names, get_rules
from muster.games.freedom.texts import names
from muster.i18n import (
    LANGS,
    catalog,
    check_lang,
    entry,
    from_accept_language,
    from_environment,
    json_catalog,
    po_path,
    render,
    translator,
)
from muster.i18n_tools import extract, extract_domain, shipped_domains

PLACEHOLDER = re.compile(r"\{(\w+)")


def _strings(msg: object) -> list[str]:
    text = msg.string
    return list(text) if isinstance(text, tuple | list) else [text]


@pytest.mark.parametrize("domain", shipped_domains())
@pytest.mark.parametrize("lang", LANGS)
def test_every_message_the_code_uses_is_translated(lang: str, domain: str) -> None:
    used = extract_domain(domain)
    cat = catalog(lang, domain)
    missing = []
    for msgid in used:
        msg = cat.get(msgid)
        if msg is None or not all(_strings(msg)):
            missing.append(msgid)
    assert not missing, f"{lang} {domain}: {len(missing)} messages lack a translation, e.g. {missing[:5]}"


@pytest.mark.parametrize("domain", shipped_domains())
@pytest.mark.parametrize("lang", LANGS)
def test_no_catalog_message_is_unused(lang: str, domain: str) -> None:
    used = set(extract_domain(domain))
    unused = [m.id for m in catalog(lang, domain)
              if m.id and (m.id[0] if isinstance(m.id, tuple) else m.id) not in used]
    assert not unused, f"{lang} {domain}: messages no code uses: {unused[:5]} (run python -m muster.i18n_tools)"


def test_every_message_lives_in_one_domain() -> None:
    # Hellenes' messages sit in their own catalog; a message Freedom! or the shared pages use stays in muster.po
    shared, own = set(extract_domain("muster")), set(extract_domain("hellenes"))
    assert not shared & own
    assert shared | own == set(extract())
    assert "side:athens:people" in own and "— {season} {year} BC —" in own


@pytest.mark.parametrize("domain", shipped_domains())
@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_placeholders(lang: str, domain: str) -> None:
    for msg in catalog(lang, domain):
        if not msg.id:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for text in _strings(msg):
            assert set(PLACEHOLDER.findall(text)) <= wanted | {"n"}, (msg.id, text)


def test_catalog_files_parse_with_babel() -> None:
    for lang in LANGS:
        for domain in shipped_domains():
            with po_path(lang, domain).open("rb") as fh:
                assert len(read_po(fh, locale=lang)) > 100


def test_polish_has_three_plural_forms() -> None:
    tr = translator("pl")
    forms = [tr.nfmt("{n} hit", "{n} hits", n) for n in (1, 2, 5, 12, 22, 25, 101)]
    assert forms == ["1 trafienie", "2 trafienia", "5 trafień", "12 trafień", "22 trafienia", "25 trafień",
                     "101 trafień"]
    assert translator("en").nfmt("{n} hit", "{n} hits", 1) == "1 hit"
    assert translator("en").nfmt("{n} hit", "{n} hits", 3) == "3 hits"


def test_numbers_follow_the_language() -> None:
    assert translator("pl").number(12345) == "12\xa0345"
    assert translator("en").number(12345) == "12,345"


def test_choosing_a_language() -> None:
    assert from_accept_language("pl-PL,pl;q=0.9,en;q=0.8") == "pl"
    assert from_accept_language("de-DE,en;q=0.5,pl;q=0.7") == "pl"
    assert from_accept_language("de,fr") is None
    assert from_environment({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert from_environment({"LANG": "C.UTF-8"}) == "en"
    assert from_environment({"MUSTER_LANG": "en", "LANG": "pl_PL.UTF-8"}) == "en"
    assert check_lang("PL") == "pl"
    with pytest.raises(ValueError, match="unsupported language"):
        check_lang("xx")


def test_json_catalog_for_the_browser() -> None:
    data = json_catalog("pl")
    assert data["plural_categories"] == ["one", "few", "many"]
    assert data["messages"]["{n} hit"] == ["{n} trafienie", "{n} trafienia", "{n} trafień"]
    json.dumps(data)
    # English ids are the texts, so the English catalog carries only keyed messages (the pages ask for it too)
    english = json_catalog("en")["messages"]
    assert english["side:sparta"] == "Sparta" and english["side:insurgent"] == "Insurgent"
    assert all(key != text for key, text in english.items())


def _random_game(seed: int) -> object:
    rules = get_rules("freedom")
    s = rules.setup(seed, {"ruleset": "2nd"})
    r = random.Random(seed)
    while rules.outcome(s) is None:
        rules.apply(s, r.choice(rules.legal_actions(s)))
    return s


@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_game_log_renders_in_both_languages(seed: int) -> None:
    rules = get_rules("freedom")
    s = _random_game(seed)
    en, pl = rules.log(s), rules.log(s, "pl")
    assert len(en) == len(pl) > 100
    for line in en + pl:
        assert "{" not in line and "}" not in line and "(s)" not in line, line
    assert pl[0].startswith("Przygotowanie gry")
    assert sum(a != b for a, b in zip(en, pl, strict=True)) > len(en) // 2


def test_the_stored_log_is_language_neutral_and_survives_json() -> None:
    rules = get_rules("freedom")
    s = _random_game(5)
    data = json.loads(json.dumps(rules.to_json(s)))
    assert all(isinstance(e, dict) and "m" in e for e in data["log"])
    back = rules.from_json(data)
    assert rules.log(back, "pl") == rules.log(s, "pl")


def test_legacy_english_lines_load_and_show_as_they_are() -> None:
    rules = get_rules("freedom")
    s = _random_game(7)
    data = rules.to_json(s)
    data["log"] = ["Imperial Morale 15 → 14.", *data["log"][1:]]
    back = rules.from_json(data)
    assert rules.log(back, "pl")[0] == "Imperial Morale 15 → 14."


def test_render_entry_kinds() -> None:
    pl = names("pl")
    e = entry("{side} plays {card} for {n} AP.", side="imperial", card=30, n=2)
    assert render(e, pl) == "Gracz Imperium zagrywa kartę 30A „Ucieczka greckiej floty” za 2 PA."
    assert render(entry("{side.gen} Morale fell to 0.", side="insurgent"), pl) == "Morale Greków spadło do zera."


def test_the_bot_level_words_match_the_levels() -> None:
    from muster.ai.levels import LEVELS
    from muster.server.app import LEVEL_WORDS

    assert {lv.name for lv in LEVELS} == set(LEVEL_WORDS)


@pytest.mark.parametrize("game", [n for n in game_names() if game_module(n).domain in shipped_domains()])
def test_every_game_says_in_polish_how_its_bot_levels_play(game: str) -> None:
    # the lobby shows each level's sentence from the game's module, translated by the browser's t()
    descriptions = [play.description for play in game_module(game).levels.values()]
    assert descriptions and set(descriptions) <= set(extract())
    assert all(translator("pl").gettext(d) != d for d in descriptions)


def test_every_choice_and_prompt_of_a_game_reads_in_polish() -> None:
    from muster.core.game import Game
    from muster.games.freedom.texts import label_in, prompt_in

    rules = get_rules("freedom")
    for seed in (3, 8):
        game = Game(rules, seed, {"ruleset": "2nd"})
        r = random.Random(seed)
        while game.outcome is None:
            seat = game.active_seat
            labelled = game.labelled_actions()
            for action, label in labelled:
                assert label_in(action, seat, label, "pl") != label, (action, label)
            assert "{" not in prompt_in(game.view(seat), seat, game.prompt, "pl")
            game.apply(r.choice([a for a, _ in labelled]))
