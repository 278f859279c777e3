"""Who has agreed to hints in a game: a per-game option set at creation.

Against a bot, the person playing decides alone. Between two people, the creator proposes hints and
the other seat must accept before either may ask; once both agreed the game is marked as hinted for
both (hints are an advantage, so neither gets them behind the other's back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from muster.error_texts import refusal


class HintsRefusedError(PermissionError):
    """Hints were asked for in a game where they are not (yet) agreed."""


@dataclass
class HintConsent:
    """The hint option of one game."""

    humans: tuple[str, ...]
    """The seats played by people (the others are bots)."""
    agreed: set[str] = field(default_factory=set)

    @classmethod
    def at_creation(cls, humans: tuple[str, ...], creator: str | None, hints: bool) -> HintConsent:
        """The option as the creator sets it: with ``hints``, the creator has agreed (proposed)."""
        consent = cls(tuple(humans))
        if hints and creator in consent.humans:
            consent.agreed.add(creator)
        return consent

    def accept(self, seat: str) -> None:
        """``seat`` agrees to the hints proposed (ValueError if none were proposed or it plays no seat)."""
        if seat not in self.humans:
            raise ValueError(refusal("{seat} is not played by a person", seat=seat))
        if not self.agreed:
            raise ValueError("no hints were proposed for this game")
        self.agreed.add(seat)

    @property
    def hinted(self) -> bool:
        """True when every person in the game has agreed: hints are on for all of them."""
        return bool(self.humans) and set(self.humans) <= self.agreed

    def check(self, seat: str) -> None:
        """Raise :class:`HintsRefusedError` unless ``seat`` may see hints now."""
        if seat not in self.humans:
            raise HintsRefusedError(refusal("{seat} is not played by a person", seat=seat))
        if not self.hinted:
            missing = sorted(set(self.humans) - self.agreed)
            raise HintsRefusedError(refusal("hints need the agreement of {seats}", seats=", ".join(missing)))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready (the game shows ``hinted`` to both seats)."""
        return {"humans": list(self.humans), "agreed": sorted(self.agreed), "hinted": self.hinted}
