"""Hellenes as a plugin: the one object the rest of muster reaches this game through (registered under the
``muster.games`` entry point group as ``hellenes``)."""

from muster.core.plugin import GameModule, LevelPlay

MODULE = GameModule(
    name="hellenes",
    title="Hellenes: Campaigns of the Peloponnesian War",
    package="muster.games.hellenes",
    rules="muster.games.hellenes:RULES",
    order=20,
    bots={"heuristic": "muster.games.hellenes.bots:HellenesHeuristicBot"},
    search="muster.games.hellenes.bots:HellenesKnowledge",
    levels={
        "beginner": LevelPlay("random", "Plays any legal move: good for learning the rules."),
        "standard": LevelPlay("heuristic", "Weighs the map, the battle odds and Prestige; answers at once."),
        "strongest": LevelPlay("ismcts", "Tries its best few choices against the blocks you might have and the "
                                         "dice, and keeps the one that works out; under a second a move."),
    },
    web="muster.server.games.hellenes:ADAPTER",
    terminal="muster.games.hellenes.terminal:TERMINAL",
    lab="muster.games.hellenes.lab:LAB",
    drawing="muster.games.hellenes.svg:draw",
    invariants="muster.games.hellenes.invariants:violations",
    domain="hellenes",
    rules_pages={"en": "rules-hellenes.html", "pl": "rules-hellenes.pl.html"},
)
