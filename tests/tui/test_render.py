"""The text board and the screen parts show the right things, and nothing a seat may not see."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType

from muster.core import Action, Game, get_rules
from muster.games.freedom.guide import current_phase, phase_help
from muster.games.freedom.rules.action_phase import card
from muster.games.freedom.terminal import (
    areas_grid,
    board_panel,
    choices_renderable,
    hand_panel,
    log_panel,
    mainland_table,
    screen,
    status_line,
    tracks_text,
    units_text,
    wall_text,
)
from muster.games.freedom.texts import explain


def plain(renderable: RenderableType, width: int = 120) -> str:
    """What the renderable looks like on a colourless terminal of ``width`` columns."""
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def new_game(seed: int = 7) -> Game:
    return Game(get_rules("freedom"), seed, {"ruleset": "2nd"})


def to_action_phase(game: Game) -> None:
    """Skip the Opening by declining every optional step (choosing 'done')."""
    while game.state.stack[-1]["kind"] != "card_turn":
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.verb == "done"), legal[0]))


def test_units_text_counts_each_kind_and_the_cannon() -> None:
    view = new_game().view("imperial")
    # rule 2.0 setup: a fort holds one defender and an Insurgent cannon; the 3rd fort the Bombard
    assert units_text(view, "w2").plain == "1I ■"
    assert units_text(view, "w6").plain == "1I ◆"
    assert units_text(view, "r6c4").plain == "2E ▲"
    assert units_text(view, "r5c5").plain == "·"
    assert units_text(view, "camp").plain == "5E"


def test_wall_text_shows_fort_and_damage() -> None:
    game = new_game()
    view = game.view(None)
    assert wall_text(view, "w2").plain.splitlines() == ["Fort", "1I ■", "intact"]
    view["spaces"]["damage"]["w3"] = 1
    view["spaces"]["damage"]["w5"] = 2
    assert wall_text(view, "w3").plain.splitlines() == ["wall", "1I", "damaged"]
    assert wall_text(view, "w5").plain.splitlines()[-1] == "DESTROYED"


def test_mainland_table_has_rows_8_to_4_and_the_wall() -> None:
    text = plain(mainland_table(new_game().view(None)))
    lines = [line for line in text.splitlines() if "Row" in line]
    assert [line.split("│")[1].strip() for line in lines[:5]] == [f"Row {r}" for r in (8, 7, 6, 5, 4)]
    assert "(Row 3)" in text and text.count("Fort") == 4 and text.count("intact") == 9
    header = text.splitlines()[1]
    assert all(f"col {c}" in header for c in range(1, 10))


def test_board_panel_shows_city_lagoon_islands_and_camp() -> None:
    text = plain(board_panel(new_game().view(None)))
    for words in ("Kütahi's Camp", "Beach (Row 2)", "Coast (Row 1)", "8 civilians", "Marmarou island 1I ■",
                  "Vasiladi island 1I", "Klisova island 1I", "mar3(thick)", "kli5(thick)", "vas1"):
        assert words in text, words


def test_tracks_and_areas() -> None:
    view = new_game().view(None)
    text = plain(tracks_text(view))
    assert "Imperial  Morale 15 · Money 10 · Supplies 12 · Plea 0 · Preparation 0" in text
    assert "Insurgent Morale 10 · Supplies 8 · Pressure 0" in text
    view["tracks"]["insurgent"]["pressure"] = -1
    assert "Pressure removed" in plain(tracks_text(view))
    areas = plain(areas_grid(view))
    assert "Sea Ins ●●" in areas and "Patra Imp ●●●" in areas and "Zygos Imp ●" in areas


def test_hand_panel_shows_own_cards_and_hides_the_opponents() -> None:
    game = new_game()
    own = game.state.hands["imperial"]
    theirs = game.state.hands["insurgent"]
    view = game.view("imperial")
    text = plain(hand_panel(view, "imperial"), width=160)
    for number in own:
        c = card(number)
        assert f"{c.number}{c.deck}" in text and c.name in text
    # the opponent's hand is only a count in the view, so it cannot be drawn
    assert "no hand to show" in plain(hand_panel(view, "insurgent"))
    full = plain(screen(view, "imperial", game.prompt, game.labelled_actions(), game.log(), 0), width=160)
    hidden_names = {card(n).name for n in theirs} - {card(n).name for n in own}
    hidden_names = {n for n in hidden_names if not n.startswith("Card ")}
    assert not any(name in full for name in hidden_names)
    assert "in hand: Imperial 8, Insurgent 8" in full


def test_status_line_names_round_period_phase() -> None:
    game = new_game()
    assert "Round 1 of 6 · Period A · Opening · 2nd edition rules" in plain(status_line(game.view(None)))
    to_action_phase(game)
    assert "Action phase" in plain(status_line(game.view(None)))


def test_log_panel_marks_new_lines() -> None:
    console = Console(file=io.StringIO(), width=80, color_system="truecolor", force_terminal=True)
    console.print(log_panel(["old", "new"], 1))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[1mnew" in out and "\x1b[2mold" in out
    assert "nothing yet" in plain(log_panel([], 0))


def test_choices_are_numbered_with_explanations() -> None:
    game = new_game()
    to_action_phase(game)
    labelled = game.labelled_actions()
    text = plain(choices_renderable(labelled, "imperial"), width=200)
    for n, (action, label) in enumerate(labelled, start=1):
        assert f"{n}. {label}" in text
        if action.verb == "event":
            assert card(int(action.arg)).text in text  # type: ignore[arg-type]
    assert explain(Action("ap", labelled[0][0].arg)) in text


def test_many_choices_go_in_columns_with_one_note_per_verb() -> None:
    game = new_game()
    labelled = game.labelled_actions()  # Opening: 14 source spaces + done
    assert len(labelled) > 12
    text = plain(choices_renderable(labelled, "imperial"), width=120)
    assert len(text.splitlines()) < len(labelled)
    assert f"{len(labelled)}. done" in text
    assert text.count("from: ") == 1


def test_explanations_differ_by_side_where_the_rules_do() -> None:
    assert "2 dice" in explain(Action("attack"), "imperial")
    assert "1 die" in explain(Action("attack"), "insurgent")
    assert explain(Action("event", 1)) == card(1).text


def test_phase_of_each_step_and_its_help() -> None:
    game = new_game()
    view = game.view("imperial")
    assert current_phase(view) == "opening"
    assert "Opening" in phase_help(view) and "5 units" in phase_help(view)
    to_action_phase(game)
    view = game.view(game.active_seat)
    assert current_phase(view) == "actions"
    assert "Action Points" in phase_help(view) and "undo" in phase_help(view)


def test_playing_the_opponents_colour_for_ap_warns_of_the_trigger() -> None:
    # rule 4.3.1: a card of the opponent's colour played for AP lets the opponent use its event
    assert card(1).side == "blue" and card(36).side == "red"
    assert "your opponent may then" in explain(Action("ap", 1), "imperial")
    assert "your opponent may then" not in explain(Action("ap", 36), "imperial")
    assert "your opponent may then" in explain(Action("ap", 36), "insurgent")


def test_the_map_marks_the_spaces_the_choices_name() -> None:
    from muster.games.freedom.terminal import CANDIDATE_STYLE, SELECTED_STYLE, choice_marks

    game = new_game()
    marks = choice_marks(game.view("imperial"), game.labelled_actions())
    # Opening (rule 4.2): any unit of the Camp or the mainland may be the one to advance
    assert marks["camp"] == CANDIDATE_STYLE and marks["r6c1"] == CANDIDATE_STYLE
    assert "w1" not in marks
    game.apply(next(a for a in game.legal_actions() if a.arg == "camp"))
    marks = choice_marks(game.view("imperial"), game.labelled_actions())
    assert marks["camp"] == SELECTED_STYLE
    assert {sid for sid, style in marks.items() if style == CANDIDATE_STYLE} == {
        str(a.arg) for a in game.legal_actions()
    }
    legend = plain(board_panel(game.view("imperial"), marks))
    assert "underlined: spaces you may choose now" in legend and "reversed: the space already chosen" in legend


def test_help_notes_the_first_edition_differences() -> None:
    first = Game(get_rules("freedom"), 7, {"ruleset": "1st"})
    # rule 4.2 (1st edition): the Opening units come from one row or the Camp
    assert "1st edition: the advancing units must all come from one row" in phase_help(first.view("imperial"))
    assert "1st edition" not in phase_help(new_game().view("imperial"))


def test_the_event_on_offer_is_shown_to_the_player_who_may_use_it() -> None:
    from muster.games.freedom.terminal import offered_event

    view = new_game().view("insurgent")
    assert offered_event(view, "insurgent").plain == ""
    # rule 4.3.1: the Imperial player played blue card 1 for AP; the Insurgent may use its event
    view["trigger"] = {"seat": "insurgent", "card": 1}
    assert offered_event(view, "insurgent").plain == f"Event on offer: 1A {card(1).name}: {card(1).text}"
    assert offered_event(view, "imperial").plain == ""


def test_compact_screen_is_shorter_and_still_shows_what_a_decision_needs() -> None:
    game = new_game()
    to_action_phase(game)
    view = game.view("imperial")
    log = game.log()
    full = plain(screen(view, "imperial", game.prompt, game.labelled_actions(), log[-10:], 3), width=80)
    short = plain(screen(view, "imperial", game.prompt, game.labelled_actions(), log[-10:], 3, compact=True), width=80)
    assert len(short.splitlines()) <= len(full.splitlines()) - 20
    for number in game.state.hands["imperial"]:  # every card by number, name, AP and colour...
        c = card(number)
        assert f"{c.number}{c.deck} {c.name} ({c.ap} AP, {c.side or 'none'})" in " ".join(short.split())
    assert "Row 8" in short and "(Row 3)" in short and "Klisova island" in short
    assert "Imperial to play" in short and "1." in short
    assert log[-1] in short and log[-4] not in short  # only the newest lines: 'log' shows more
    hands = game.state.hands
    hidden = {card(n).name for n in hands["insurgent"]} - {card(n).name for n in hands["imperial"]}
    assert not any(name in short for name in hidden if not name.startswith("Card "))


def test_compact_screen_points_to_the_log_when_much_happened() -> None:
    game = new_game()
    lines = [f"line {k}" for k in range(10)]
    short = plain(screen(game.view("imperial"), "imperial", game.prompt, game.labelled_actions(), lines, 9,
                         compact=True))
    assert "5 earlier new lines: type 'log'" in short
    assert "line 9" in short and "line 5" not in short
    quiet = plain(screen(game.view("imperial"), "imperial", game.prompt, game.labelled_actions(), lines, 0,
                         compact=True))
    assert "line 9" not in quiet


def test_compact_map_fits_80_columns() -> None:
    view = new_game().view(None)
    assert all(len(line) <= 80 for line in plain(board_panel(view, compact=True), width=80).splitlines())
    assert "waters" not in plain(board_panel(view, compact=True), width=80)
    assert "kli5(thick)" in plain(board_panel(view, compact=True), width=80)
