"""Freedom! as a plugin: the one object the rest of muster reaches this game through (registered under the
``muster.games`` entry point group as ``freedom``)."""

from muster.core.plugin import GameModule, LevelPlay

STRONGEST = "ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6"
"""The strongest bot that answers a card within a second of CPU at the 95th percentile (compiled rules)."""

MODULE = GameModule(
    name="freedom",
    title="Freedom! Messolonghi 1825–1826",
    package="muster.games.freedom",
    rules="muster.games.freedom:RULES",
    order=10,
    bots={"heuristic": "muster.ai.heuristic:HeuristicBot", "ismcts": "muster.ai.ismcts:IsmctsBot"},
    levels={
        "beginner": LevelPlay("random", "Plays any legal move: good for learning the rules."),
        "standard": LevelPlay("heuristic", "Weighs the board and plans the last card of each phase; answers at once."),
        "strongest": LevelPlay(STRONGEST, "Looks ahead through the cards you might hold; about a second per card.",
                               former=("ismcts",)),
    },
    web="muster.games.freedom.web:ADAPTER",
    analysis="muster.analysis:ANALYSIS",
    terminal="muster.games.freedom.terminal:TERMINAL",
    domain="muster",
    rules_pages={"en": "rules-freedom.html", "pl": "rules-freedom.pl.html"},
)
