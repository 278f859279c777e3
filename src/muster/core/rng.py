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

from mypy_extensions import i64

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
    if _COMPILED and 0 < n < _HALVES_N_LIMIT and state <= _MASK:
        hi, lo, x_hi, x_lo = _splitmix_halves(i64(state >> 32), i64(state & _LOW))
        # (x * n) >> 64 with x = x_hi * 2**32 + x_lo, neither product past 63 bits
        return int(hi) << 32 | int(lo), int((x_hi * n + (x_lo * n >> 32)) >> 32)
    state, x = next_u64(state)
    return state, (x * n) >> 64


# Compiled, SplitMix64 runs on the state's two 32-bit halves in machine integers (i64): every intermediate fits in
# 63 bits, so the arithmetic is exact, and no step allocates the Python integers that 64-bit products need (they
# were most of a roll's cost). Interpreted, the plain form above is the faster one; both give the same numbers.
_COMPILED: Final = not __file__.endswith(".py")
_LOW: Final = 0xFFFFFFFF
_M32: Final[i64] = 0xFFFFFFFF
_M16: Final[i64] = 0xFFFF
_HALVES_N_LIMIT: Final = 1 << 30
_GOLDEN_HI: Final[i64] = _GOLDEN >> 32
_GOLDEN_LO: Final[i64] = _GOLDEN & 0xFFFFFFFF
_MIX1_HI: Final[i64] = 0xBF58476D
_MIX1_LO: Final[i64] = 0x1CE4E5B9
_MIX2_HI: Final[i64] = 0x94D049BB
_MIX2_LO: Final[i64] = 0x133111EB


def _splitmix_halves(hi: i64, lo: i64) -> tuple[i64, i64, i64, i64]:
    """:func:`next_u64` of a SplitMix64 state given as its high and low 32 bits: (new state's high and low
    halves, the output's high and low halves)."""
    lo += _GOLDEN_LO
    hi = (hi + _GOLDEN_HI + (lo >> 32)) & _M32
    lo &= _M32
    z_hi, z_lo = _xorshift_times(hi, lo, 30, _MIX1_HI, _MIX1_LO)
    z_hi, z_lo = _xorshift_times(z_hi, z_lo, 27, _MIX2_HI, _MIX2_LO)
    z_lo ^= ((z_lo >> 31) | (z_hi << 1)) & _M32
    z_hi ^= z_hi >> 31
    return hi, lo, z_hi, z_lo


def _xorshift_times(hi: i64, lo: i64, shift: i64, c_hi: i64, c_lo: i64) -> tuple[i64, i64]:
    """``((z ^ (z >> shift)) * c) mod 2**64`` on 32-bit halves (``27 <= shift < 32``); the constant's halves are
    multiplied 16 bits at a time, so no product passes 48 bits."""
    lo ^= ((lo >> shift) | (hi << (32 - shift))) & _M32
    hi ^= hi >> shift
    # lo * c_lo in full: its low 32 bits and its high 32 bits
    c0, c1 = c_lo & _M16, c_lo >> 16
    b = lo * c1
    t = lo * c0 + ((b & _M16) << 16)
    carry_high = (b >> 16) + (t >> 32)
    # hi * c_lo + lo * c_hi, modulo 2**32 (it lands in the high half)
    d0, d1 = c_hi & _M16, c_hi >> 16
    cross = hi * c0 + ((hi * c1 & _M16) << 16) + lo * d0 + ((lo * d1 & _M16) << 16)
    return (carry_high + cross) & _M32, t & _M32


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
