"""The two random generators: SplitMix64 for integer seeds (unchanged), keyed BLAKE2b for secret seeds."""

from __future__ import annotations

import hashlib
import json
import random

from muster.core import Game, get_rules, rng

SECRET = (1 << 256) | 0x5EC12E7_0F_1A1D_5EED_0F_7E57


def test_small_seeds_keep_the_splitmix64_generator() -> None:
    # the reference outputs of SplitMix64 seeded with 0 (first three 64-bit values)
    state = 0
    outs = []
    for _ in range(3):
        state, x = rng.next_u64(state)
        outs.append(x)
    assert outs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert not rng.is_keyed(rng.seed_state(2**128 - 1))
    assert rng.seed_state(12345) == (12345 * 0xBF58476D1CE4E5B9 + 0x9E3779B97F4A7C15) % 2**64


def test_a_secret_seed_gives_keyed_blake2b_outputs() -> None:
    state = rng.seed_state(SECRET)
    assert rng.is_keyed(state)
    raw = SECRET.to_bytes((SECRET.bit_length() + 7) // 8, "little")
    key = hashlib.blake2b(raw, digest_size=32, person=b"muster-rng-v1").digest()
    for counter in range(5):
        state, x = rng.next_u64(state)
        expected = hashlib.blake2b(counter.to_bytes(8, "little"), key=key, digest_size=8).digest()
        assert x == int.from_bytes(expected, "little")  # output i is the keyed hash of i: a pseudo-random function


def test_the_keyed_state_is_a_small_json_value_and_replays_exactly() -> None:
    rules = get_rules("freedom")
    one, two = Game(rules, SECRET), Game(rules, SECRET)
    assert one.state.hands == two.state.hands and one.state.decks == two.state.decks
    data = rules.to_json(one.state)
    assert len(json.dumps(data["rng"])) < 120
    assert rules.to_json(rules.from_json(json.loads(json.dumps(data)))) == data


def test_neighbouring_secret_seeds_deal_unrelated_games() -> None:
    rules = get_rules("freedom")
    hands = {tuple(Game(rules, SECRET + k).state.hands["imperial"]) for k in range(20)}
    assert len(hands) == 20


def test_a_shuffle_with_the_keyed_generator_is_uniform_enough() -> None:
    state = rng.seed_state(SECRET)
    counts = [[0] * 4 for _ in range(4)]
    for _ in range(4000):
        state, out = rng.shuffled(state, [0, 1, 2, 3])
        for position, item in enumerate(out):
            counts[position][item] += 1
    assert all(800 < c < 1200 for row in counts for c in row)


def test_a_roll_is_the_multiply_shift_of_the_next_splitmix64_output() -> None:
    # compiled, below() runs SplitMix64 on the state's 32-bit halves in machine integers; it must give exactly what
    # the 64-bit form gives, at the edges of the halves and for every size of range it takes that way (and beyond)
    chooser = random.Random(2026)
    edges = [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1]
    states = edges + [chooser.getrandbits(64) for _ in range(20_000)]
    for state in states:
        for n in (1, 2, 6, 10, 2**30 - 1, 2**30, 2**40, chooser.randrange(1, 2**30)):
            following, x = rng.next_u64(state)
            assert rng.below(state, n) == (following, (x * n) >> 64)
