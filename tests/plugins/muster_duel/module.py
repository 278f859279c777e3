"""Duel as a muster plugin: registered as ``duel`` by ``tests/plugins/muster_duel-1.0.dist-info/entry_points.txt``."""

from muster.core.plugin import GameModule, LevelPlay

MODULE = GameModule(
    name="duel",
    title="Duel",
    package="muster_duel",
    rules="muster_duel.rules:RULES",
    order=900,
    bots={"counting": "muster_duel.bots:counting"},
    levels={
        "beginner": LevelPlay("random", "Plays any card."),
        "standard": LevelPlay("counting", "Answers with the lowest card that wins and leads its highest."),
    },
    web="muster_duel.web:ADAPTER",
    terminal="muster_duel.terminal:TERMINAL",
    invariants="muster_duel.invariants:violations",
    domain="duel",
)
