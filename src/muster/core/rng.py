"""The random generator of games; its whole state is one integer kept in the game state.

Games keep this integer inside their JSON state, so saving, copying and replaying a game
reproduce every future die roll exactly. There are two kinds, told apart by the integer:

* **SplitMix64** (states below 2**64), from ordinary integer seeds: tiny and fast, used by local
  games (``--seed``), the lab, tests and bots' imagined games. Its outputs reveal its state, which
  is fine where nobody hides anything from anybody.
* **Keyed BLAKE2b** (states of 2**64 and more), from a secret seed of at least 2**128, as the web
  server draws for every game between people: output *i* is BLAKE2b keyed with the secret, applied
  to the counter *i*. Without the key, no number of revealed cards and dice predicts the next one
  (that is what a keyed hash, a pseudo-random function, guarantees), so the deal cannot be worked
  out from one's own hand as it could from a 31-bit seed.

Seeds below 2**128 give the same SplitMix64 games as ever: recorded games and golden tests replay
unchanged.
"""

from __future__ import annotations

import hashlib
from typing import Final

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
KEYED_SEED_MIN: Final = 1 << 128
"""Seeds from here up are secret keys for the keyed generator (at least 128 bits of them)."""
_KEY_BITS: Final = 256
_KEY_MASK: Final = (1 << _KEY_BITS) - 1
_KEYED_FLAG: Final = 1 << (64 + _KEY_BITS)
"""Set in every keyed state, so a state's layout (flag | key | counter) is fixed whatever the key."""
_PERSON: Final = b"muster-rng-v1"


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state (a seed of 2**128 or more: the keyed generator)."""
    if seed >= KEYED_SEED_MIN:
        raw = seed.to_bytes((seed.bit_length() + 7) // 8, "little")
        key = int.from_bytes(hashlib.blake2b(raw, digest_size=_KEY_BITS // 8, person=_PERSON).digest(), "little")
        return _KEYED_FLAG | (key << 64)
    return (seed * 0xBF58476D1CE4E5B9 + _GOLDEN) & _MASK


def is_keyed(state: int) -> bool:
    """True for a state of the keyed (cryptographic) generator."""
    return state > _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, 64-bit output)."""
    if state > _MASK:
        counter = state & _MASK
        key = ((state >> 64) & _KEY_MASK).to_bytes(_KEY_BITS // 8, "little")
        digest = hashlib.blake2b(counter.to_bytes(8, "little"), key=key, digest_size=8).digest()
        return (state & ~_MASK) | ((counter + 1) & _MASK), int.from_bytes(digest, "little")
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
