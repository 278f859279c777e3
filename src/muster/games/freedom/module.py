"""Freedom! as a plugin: the one object the rest of muster reaches this game through (registered under the
``muster.games`` entry point group as ``freedom``)."""

from muster.core.plugin import GameModule, LevelPlay

STRONGEST = ("ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6,cpu=0.9,counter=1,"
             "counter_seat=insurgent,reach_islands=1,reach_spread=0.5")
"""The spec of the strongest bot that answers a card within about a second of CPU at the 95th percentile
(``benchmarks/bots.py``): what the "strongest" level plays. Its playouts plan whole cards, its evaluation counts
how close the Imperial side is to a capture, it plays twelve playouts a card, as the Imperial it keeps Money
for the next upkeep, as the Insurgent it prices the chance its AP give of clearing a landing (``counter``), and its
reach term follows routes through the islands and counts every route to a fort or the Beach, not the nearest
alone (``reach_islands``, ``reach_spread``) (docs/bots.md, docs/balance.md). ``cpu=0.9`` is its budget of CPU
seconds a card: where its twelve playouts fit it plays as without it; a slower install plays fewer (docs/bots.md
"Time budgets")."""

MODULE = GameModule(
    name="freedom",
    title="Freedom! Messolonghi 1825–1826",
    package="muster.games.freedom",
    rules="muster.games.freedom:RULES",
    order=10,
    bots={"heuristic": "muster.games.freedom.bots.heuristic:HeuristicBot",
          "learned": "muster.games.freedom.bots.heuristic:LearnedValueBot",
          "ismcts": "muster.games.freedom.bots.ismcts:IsmctsBot"},
    levels={
        "beginner": LevelPlay("random", "Plays any legal move: good for learning the rules."),
        "standard": LevelPlay("heuristic", "Weighs the board and plans the last card of each phase; answers at once."),
        "strongest": LevelPlay(STRONGEST, "Looks ahead through the cards you might hold.",
                               former=("ismcts",
                                       "ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6",
                                       "ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6,cpu=0.9",
                                       "ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6,cpu=0.9,"
                                       "counter=1")),
    },
    web="muster.games.freedom.web:ADAPTER",
    analysis="muster.games.freedom.analysis:ANALYSIS",
    lab="muster.games.freedom.lab:LAB",
    terminal="muster.games.freedom.terminal:TERMINAL",
    drawing="muster.games.freedom.svg:draw",
    commands="muster.games.freedom.commands:COMMANDS",
    invariants="muster.games.freedom.invariants:violations",
    domain="muster",
    # what a simulation runs through at every step, and the lookahead and evaluation a searching bot runs at each node
    compiled=(
        "muster.games.freedom.constants", "muster.games.freedom.board", "muster.games.freedom.state",
        "muster.games.freedom.engine", "muster.games.freedom.rules.common", "muster.games.freedom.rules.action_phase",
        "muster.games.freedom.rules.movement", "muster.games.freedom.rules.combat",
        "muster.games.freedom.rules.cannons", "muster.games.freedom.rules.imperial_actions",
        "muster.games.freedom.rules.insurgent_actions", "muster.games.freedom.rules.opening",
        "muster.games.freedom.rules.administration", "muster.games.freedom.rules.replenishment",
        "muster.games.freedom.rules.victory", "muster.games.freedom.rules.setup",
        "muster.games.freedom.cards.primitives", "muster.games.freedom.cards.effects",
        "muster.games.freedom.bots.evaluation", "muster.games.freedom.bots.heuristic",
    ),
    rules_pages={"en": "rules-freedom.html", "pl": "rules-freedom.pl.html"},
)
