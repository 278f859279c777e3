"""One package per game. Each exposes a ``RULES`` object implementing :class:`muster.core.Rules`."""
