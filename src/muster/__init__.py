"""muster: card-driven historical wargames as rules-enforced software.

The game-agnostic interface lives in :mod:`muster.core`; each game is a package
under :mod:`muster.games`. Start with :func:`muster.core.new_game`.
"""

__version__ = "0.2.0"
"""The package version (the one source: pyproject.toml reads it from here)."""
