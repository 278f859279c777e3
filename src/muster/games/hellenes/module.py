"""Hellenes as a plugin: the one object the rest of muster reaches this game through (registered under the
``muster.games`` entry point group as ``hellenes``)."""

from muster.core.plugin import GameModule, LevelPlay

STRONGEST = "ismcts:search=actions+battle_retreat+fortify+siege_choice+group,width=5,iterations=24,cpu=0.9"
"""The Strongest level's bot: the game-agnostic search over Hellenes' knowledge, which besides the Action menu and
the battle choices also searches each block's step in a Group Move, tries its five best candidates and plays up to
24 playouts a decision within 0.9 CPU-seconds (docs/bots.md, docs/hellenes-balance.md)."""

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
        "strongest": LevelPlay(STRONGEST, "Tries its best few choices against the blocks you might have and "
                                          "the dice, and keeps the one that works out.",
                               former=("ismcts", "ismcts:cpu=0.9")),
    },
    web="muster.games.hellenes.web:ADAPTER",
    terminal="muster.games.hellenes.terminal:TERMINAL",
    analysis="muster.games.hellenes.analysis:ANALYSIS",
    lab="muster.games.hellenes.lab:LAB",
    drawing="muster.games.hellenes.svg:draw",
    invariants="muster.games.hellenes.invariants:violations",
    domain="hellenes",
    compiled=(  # its state, engine and every rules module: what a simulation runs through at every step
        "muster.games.hellenes.state", "muster.games.hellenes.engine", "muster.games.hellenes.rules.common",
        "muster.games.hellenes.rules.actions", "muster.games.hellenes.rules.build",
        "muster.games.hellenes.rules.pillage", "muster.games.hellenes.rules.winter",
        "muster.games.hellenes.rules.movement", "muster.games.hellenes.rules.storms",
        "muster.games.hellenes.rules.engage", "muster.games.hellenes.rules.combat",
        "muster.games.hellenes.rules.battle_end", "muster.games.hellenes.rules.siege",
        "muster.games.hellenes.rules.events", "muster.games.hellenes.rules.initiative",
        "muster.games.hellenes.rules.new_year", "muster.games.hellenes.rules.sequence",
        "muster.games.hellenes.rules.victory", "muster.games.hellenes.rules.setup",
    ),
    rules_pages={"en": "rules-hellenes.html", "pl": "rules-hellenes.pl.html"},
)
