"""Adapters to the tools AI researchers already use (``pip install 'muster[rl]'``).

* :mod:`muster.rl.pettingzoo` — a PettingZoo AEC environment, ``env(game=name)``, with action masks;
* :mod:`muster.rl.gymnasium` — a single-agent Gymnasium environment against a muster bot,
  ``gymnasium.make("muster/<Game>-v0", opponent="heuristic", seat=…)`` (``env_id(name)`` gives the id);
* :mod:`muster.rl.openspiel` — ``register()`` makes ``pyspiel.load_game("python_muster_<game>")`` work,
  and the ``openspiel-mcts`` / ``openspiel-ismcts`` bot specs let OpenSpiel's searches play in the arena.

They all talk to a game through the game-agnostic :class:`muster.core.spaces.LearningRules`: a game
plugs in by providing an action space and an observation tensor. See ``docs/research.md``.
"""
