"""The board data file is validated on load: every broken reference or missing limit is refused."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from muster.games.freedom.board import board, build_board
from muster.games.freedom.datafiles import DataError, read_json


@pytest.fixture()
def raw() -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(read_json("board.json"))
    return data


def test_the_shipped_board_is_valid_and_complete() -> None:
    b = board()
    assert len(b.walls) == 9 and len(b.forts) == 4 and len(b.beaches) == 4 and len(b.islands) == 3
    assert len(b.mainland) == 45 and b.kind[b.camp] == "camp"
    for i, neighbours in enumerate(b.adj):
        for j in neighbours:
            assert i in b.adj[j]  # adjacency is symmetric
    assert all(b.limit[i] == 2 for i in b.walls + b.beaches)  # rule 4.2 unit limits
    assert all(b.limit[i] == 1 for i in b.islands)
    assert all(b.limit[i] == 3 for i in b.mainland)


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d["adjacency"].append(["r4c1", "nowhere"]), "unknown space"),
    (lambda d: d["adjacency"].append(["r4c1", "r4c1"]), "adjacent to itself"),
    (lambda d: d["spaces"][0].update(limit=None), "limit is required"),
    (lambda d: d["spaces"][0].update(depth="deep"), "depth"),
    (lambda d: d["spaces"][0].update(kind="volcano"), "unknown kind"),
    (lambda d: d["spaces"].append(dict(d["spaces"][0])), "duplicate"),
    (lambda d: d["cannon_reach"].append(["ordinary", "w1", "nowhere", 4]), "unknown space"),
    (lambda d: d["cannon_reach"].append(["laser", "w1", "r4c1", 4]), "unknown reach table"),
    (lambda d: d["cannon_reach"].append(["ordinary", "w1", "r4c1", 12]), "bad roll"),
    (lambda d: d["adjacency"].append(["city", "b1"]), "City Center"),
])
def test_a_broken_board_file_is_refused(raw: dict[str, Any], mutate: Any, message: str) -> None:
    mutate(raw)
    with pytest.raises(DataError, match=message):
        build_board(raw)
