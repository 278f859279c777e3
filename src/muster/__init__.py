"""muster: card-driven historical wargames as rules-enforced software.

The game-agnostic interface lives in :mod:`muster.core`; each game is a package
under :mod:`muster.games`. Start with :func:`muster.core.new_game`.
"""

from muster import _native

__version__ = "0.2.0"
"""The package version (the one source: pyproject.toml reads it from here)."""

_native.activate()  # compiled rules modules only while they match their sources
