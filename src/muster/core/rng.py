"""A small deterministic random generator whose whole state is one integer.

Games keep this integer inside their JSON state, so saving, copying and replaying
a game reproduce every future die roll exactly. The generator is SplitMix64: tiny,
fast in pure Python and statistically good enough for dice and shuffles.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return (seed * 0xBF58476D1CE4E5B9 + _GOLDEN) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, 64-bit output)."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, uniform integer in [0, n)). Multiply-shift keeps bias below 2^-60."""
    state, x = next_u64(state)
    return state, (x * n) >> 64


def shuffled(state: int, items: list[int]) -> tuple[int, list[int]]:
    """Return (new_state, a Fisher–Yates shuffled copy of items)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


def state_for_rolls(rolls: tuple[tuple[int, int], ...], multiplier: int = _GOLDEN, tries: int = 5_000_000) -> int:
    """A generator state whose next dice are exactly ``rolls`` ((sides, value) pairs, in order).

    For tests and worked examples: it searches states ``k * multiplier`` for k = 1, 2, …
    """
    for k in range(1, tries):
        state = (k * multiplier) & _MASK
        probe = state
        for sides, value in rolls:
            probe, got = below(probe, sides)
            if got + 1 != value:
                break
        else:
            return state
    raise ValueError(f"no generator state gives {rolls}")
