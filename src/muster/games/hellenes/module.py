"""Hellenes as a plugin: the one object the rest of muster reaches this game through (registered under the
``muster.games`` entry point group as ``hellenes``)."""

from muster.core.plugin import GameModule, LevelPlay

MODULE = GameModule(
    name="hellenes",
    title="Hellenes: Campaigns of the Peloponnesian War",
    package="muster.games.hellenes",
    rules="muster.games.hellenes:RULES",
    order=20,
    bots={"heuristic": "muster.ai.hellenes:_factory", "ismcts": "muster.ai.hellenes:_ismcts_factory"},
    levels={
        "beginner": LevelPlay("random", "Plays any legal move: good for learning the rules."),
        "standard": LevelPlay("heuristic", "Weighs the map, the battle odds and Prestige; answers at once."),
        "strongest": LevelPlay("ismcts", "Tries its best few choices against the blocks you might have and the "
                                         "dice, and keeps the one that works out; under a second a move."),
    },
    web="muster.games.hellenes.web:ADAPTER",
    terminal="muster.games.hellenes.terminal:TERMINAL",
    lab="muster.lab.hellenes:LAB",
    domain="hellenes",
    rules_pages={"en": "rules-hellenes.html", "pl": "rules-hellenes.pl.html"},
)
