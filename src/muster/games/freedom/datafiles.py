"""Loading and validating the versioned data files in ``data/`` (board, areas, design values, cards)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

DATA_PACKAGE = "muster.games.freedom"


class DataError(ValueError):
    """A data file is missing, malformed or inconsistent."""


def read_json(name: str) -> Any:
    """Read one data file by name from the package."""
    try:
        text = resources.files(DATA_PACKAGE).joinpath("data", name).read_text(encoding="utf-8")
        return json.loads(text)
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read data file {name}: {exc}") from exc


class Strict(BaseModel):
    """Base for data models: unknown keys are errors, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Reward(Strict):
    """What an area tile gives its controller in Replenishment (rule 4.5)."""

    supplies: int = Field(0, ge=0)
    morale: int = Field(0, ge=0)
    units: int = Field(0, ge=0)
    cannons: int = Field(0, ge=0)
    vasiladi: int = Field(0, ge=0)


class AreaData(Strict):
    """One of the 8 area tiles of the Surrounding Areas map."""

    id: str
    name: str
    start_side: Literal["imperial", "insurgent"]
    start_markers: int = Field(ge=0, le=5)
    rewards: dict[Literal["imperial", "insurgent"], Reward]

    @field_validator("rewards")
    @classmethod
    def _both_sides(cls, value: dict[str, Reward]) -> dict[str, Reward]:
        if set(value) != {"imperial", "insurgent"}:
            raise ValueError("rewards must be given for both sides")
        return value


class AreasFile(Strict):
    """``areas.json``."""

    version: int
    note: str = ""
    support_limit: int = Field(ge=1)
    areas: list[AreaData]


class CardData(Strict):
    """One card of ``cards.json``."""

    number: int = Field(ge=1, le=100)
    deck: Literal["A", "B"]
    name: str
    ap: int = Field(ge=2, le=4)
    side: Literal["red", "blue", "grey"] | None
    effect: str | None
    text: str
    note: str = ""
    source: Literal["rulebook", "design", "placeholder"]


class CardsFile(Strict):
    """``cards.json``."""

    version: int
    note: str = ""
    cards: list[CardData]


@cache
def areas_file() -> AreasFile:
    """The validated area tiles."""
    data = AreasFile.model_validate(read_json("areas.json"))
    ids = [a.id for a in data.areas]
    if len(ids) != len(set(ids)) or len(ids) != 8:
        raise DataError("areas.json must list 8 distinct areas")
    return data


@cache
def design() -> dict[str, Any]:
    """The design values (``design.json``), checked for the keys the rules read."""
    data = read_json("design.json")
    required = (
        "pools",
        "tracks",
        "setup",
        "actions",
        "combat",
        "cannons",
        "plea",
        "government",
        "upkeep",
        "desertion",
        "population_cost",
        "period_change",
        "rulesets",
        "rounds",
        "hand_size",
    )
    missing = [key for key in required if key not in data]
    if missing:
        raise DataError(f"design.json lacks {missing}")
    for name, (low, high) in data["tracks"].items():
        if not (isinstance(low, int) and isinstance(high, int) and low <= high):
            raise DataError(f"design.json: bad range for track {name}")
    return dict(data)


@cache
def cards_file() -> CardsFile:
    """The validated card list: numbers 1–100 each exactly once, 1–50 in deck A, 51–100 in deck B."""
    data = CardsFile.model_validate(read_json("cards.json"))
    numbers = sorted(c.number for c in data.cards)
    if numbers != list(range(1, 101)):
        raise DataError("cards.json must hold each card number 1–100 exactly once")
    for card in data.cards:
        if (card.deck == "A") != (card.number <= 50):
            raise DataError(f"card {card.number} is in the wrong deck")
        if card.effect is not None and card.side is None:
            raise DataError(f"card {card.number} has an event but no colour")
    return data
