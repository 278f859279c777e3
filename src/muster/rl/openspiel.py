"""OpenSpiel for muster games: ``register()`` makes ``pyspiel.load_game("python_muster_<game>")`` work for
every installed game with an action space (its registered name after ``python_muster_``).

>>> import pyspiel
>>> from muster.core.registry import default_game
>>> from muster.rl.openspiel import register, short_name
>>> short_name(default_game()) in register()
True
>>> game = pyspiel.load_game(short_name(default_game()))
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)

**Chance is sampled, not explicit** (``ChanceMode.SAMPLED_STOCHASTIC``). A muster game keeps its
random generator inside the state, and shuffles and dice happen *inside* the resolution of a
player's action (an attack rolls its dice, a card's event draws cards), often several at once and
in numbers that depend on the position. Turning each of them into an OpenSpiel chance node would
mean splitting every rule that rolls into "before" and "after" the roll — a second rules engine.
Sampled chance keeps one engine and is what OpenSpiel's sampling algorithms (MCTS, ISMCTS,
outcome-sampling MCCFR, RL) need: a clone carries its generator, so it replays the same dice, and
:meth:`MusterState.resample_from_infostate` redraws everything a player cannot see (the opponent's
hand, the piles, the future dice) through the game's ``determinize``.

Players are the game's seats in order (player 0 is its first seat). Actions are the
indexes of the game's action space; observation and information-state tensors are the seat's
observation vector, their strings the seat's information-state string (both built from what the
seat may know; the information state is the current view, not the whole history).

The bots ``openspiel-mcts`` and ``openspiel-ismcts`` let OpenSpiel's own searches play muster's bots
in ``muster arena``: options ``simulations`` (default 16), ``rollouts`` (random playouts per leaf,
default 1), ``uct`` (exploration, default 2.0); ISMCTS also ``worlds`` (how many determinizations
it keeps, default unlimited). MCTS searches one determinization of its view (it never sees the
true state); ISMCTS samples a new one per simulation.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from muster.ai.base import BotSpecError, register_bot
from muster.core import JSON, Action, Rules, game_names, get_rules
from muster.core.quiet import quiet_options
from muster.core.registry import default_game
from muster.core.spaces import LearningRules, learning_rules

MAX_GAME_LENGTH = 6000
"""An upper bound on a game's decisions (the longest fuzzed game never reaches it)."""


def short_name(game: str) -> str:
    """The OpenSpiel name of a muster game."""
    return f"python_muster_{game}"


class MusterGame(pyspiel.Game):
    """A muster game as an OpenSpiel game (parameters ``seed`` and the game's own options)."""

    rules: LearningRules

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        super().__init__(self.game_type, self.game_info, params)
        self.seed = int(params.get("seed", 0))
        self.options = {k: str(v) for k, v in params.items() if k != "seed"}
        self.options.update(quiet_options(self.rules))
        self._games = 0

    def new_initial_state(self) -> MusterState:
        """A new game: the first one on seed ``seed``, each further one on the next seed."""
        state = self.rules.setup(self.seed + self._games, self.options)
        self._games += 1
        return MusterState(self, state)

    def state_from(self, state: Any) -> MusterState:
        """Wrap a muster state (e.g. one built by ``determinize``) as an OpenSpiel state."""
        return MusterState(self, state)

    def deserialize_state(self, text: str) -> MusterState:
        """The state :meth:`MusterState.serialize` wrote (CorruptStateError if it is not one)."""
        return MusterState(self, self.rules.from_json(json.loads(text)))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MusterObserver:
        """The observer: the seat's observation vector and information-state string."""
        return MusterObserver(self.rules, params)


class MusterState(pyspiel.State):
    """An OpenSpiel state around a muster state."""

    def __init__(self, game: MusterGame, state: Any) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.seats = list(game.rules.info.seats)
        self.muster_state = state

    def current_player(self) -> int:
        """The seat deciding now (its index), or TERMINAL."""
        seat = self.rules.active_seat(self.muster_state)
        return pyspiel.PlayerId.TERMINAL if seat is None else self.seats.index(seat)

    def _legal_actions(self, player: int) -> list[int]:
        if self.rules.active_seat(self.muster_state) != self.seats[player]:
            return []
        return sorted(self.rules.action_space.indices(self.rules.legal_actions(self.muster_state)))

    def _apply_action(self, action: int) -> None:
        self.rules.apply(self.muster_state, self.rules.action_from_index(action))

    def _action_to_string(self, player: int, action: int) -> str:
        act = self.rules.action_from_index(action)
        try:
            return f"{act.verb} {act.arg}: {self.rules.label(self.muster_state, act)}"
        except Exception:  # a label needs the action to be legal here; the name alone still reads
            return f"{act.verb} {act.arg}"

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.rules.outcome(self.muster_state) is not None

    def returns(self) -> list[float]:
        """+1 to the winner, −1 to the loser, 0 for a draw or a game not over."""
        outcome = self.rules.outcome(self.muster_state)
        if outcome is None or outcome.winner is None:
            return [0.0] * len(self.seats)
        return [1.0 if s == outcome.winner else -1.0 for s in self.seats]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> MusterState:
        """A state the player cannot tell from this one: what it cannot see is drawn afresh.

        The draw's seed comes from ``probability_sampler`` (a callable giving a number in [0, 1));
        without one, from a counter of this state's resamples, so that runs repeat.
        """
        if probability_sampler is not None:
            seed = int(probability_sampler() * 2**31)
        else:
            self._resamples = getattr(self, "_resamples", 0) + 1
            seed = self.rules.action_count(self.muster_state) * 7919 + self._resamples
        return self.resample(player_id, seed)

    def resample(self, player_id: int, seed: int) -> MusterState:
        """Like :meth:`resample_from_infostate`, with the seed of the draw given."""
        seat = self.seats[player_id]
        state = self.rules.determinize(self.rules.view(self.muster_state, seat), seat, seed)
        return MusterState(self.get_game(), state)

    def serialize(self) -> str:
        """The whole state as JSON, its random generator included (so the future dice come back too)."""
        return json.dumps(self.rules.to_json(self.muster_state), separators=(",", ":"), sort_keys=True)

    def __deepcopy__(self, memo: dict[int, Any]) -> MusterState:
        return MusterState(self.get_game(), self.rules.clone(self.muster_state))

    def __str__(self) -> str:
        if self.is_terminal():
            return f"Game over: {self.rules.outcome(self.muster_state)}"
        return self.rules.prompt(self.muster_state)


class MusterObserver:
    """OpenSpiel's PyObserver: the seat's observation vector (``tensor``) and information-state string."""

    def __init__(self, rules: LearningRules, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.rules = rules
        self.tensor = np.zeros(rules.observation_shape(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MusterState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation of ``state``."""
        self.tensor[:] = self.rules.observation(state.muster_state, state.seats[player])

    def string_from(self, state: MusterState, player: int) -> str:
        """``player``'s information-state string of ``state``."""
        return self.rules.information_state(state.muster_state, state.seats[player])


def _game_class(rules: LearningRules) -> type[MusterGame]:
    name = rules.info.name
    params: dict[str, Any] = {"seed": 0}
    params.update({opt: values[0] for opt, values in rules.info.options.items() if opt != "quiet" and values})
    game_type = pyspiel.GameType(
        short_name=short_name(name), long_name=f"muster: {rules.info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(rules.info.seats), min_num_players=len(rules.info.seats),
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)
    game_info = pyspiel.GameInfo(
        num_distinct_actions=rules.action_space.size, max_chance_outcomes=0, num_players=len(rules.info.seats),
        min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=MAX_GAME_LENGTH)
    return type(f"Muster{name.title()}Game", (MusterGame,),
                {"rules": rules, "game_type": game_type, "game_info": game_info})


_REGISTERED: dict[str, type[MusterGame]] = {}


def register(games: list[str] | None = None) -> list[str]:
    """Register every muster game that has an action space (or those named); returns their OpenSpiel names.

    Safe to call more than once. It also makes ``pyspiel.serialize_game_and_state`` and
    ``deserialize_game_and_state`` work for them (:func:`serialize_game_and_state`).
    """
    _install_serialization()
    out = []
    for name in games or game_names():
        rules = get_rules(name)
        if not isinstance(rules, LearningRules):
            if games:
                learning_rules(rules)  # raises the clear error for a game named explicitly
            continue
        if name not in _REGISTERED:
            cls = _game_class(rules)
            pyspiel.register_game(cls.game_type, cls)
            _REGISTERED[name] = cls
        out.append(short_name(name))
    return out


def load(game: str | None = None, **params: Any) -> MusterGame:
    """``pyspiel.load_game`` for a muster game (default: the default game), registering it first."""
    name = game or default_game()
    register([name])
    loaded: MusterGame = pyspiel.load_game(short_name(name), params)
    return loaded


# --- Saving and loading states ----------------------------------------------------------------

_HEADER = "# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n[Game]\n"
_GAME_RNG = "[GameRNGState]"
_STATE = "\n[State]\n"


def serialize_game_and_state(game: Any, state: Any) -> str:
    """``pyspiel.serialize_game_and_state`` for muster games, in OpenSpiel's own text format.

    OpenSpiel's function is C++ and reaches a Python game only through what its bridge forwards, which
    lacks ``GetRNGState`` and a state's ``Serialize``; for sampled chance both are required, so it fails
    for every Python game. Here the game section is the game's string (its parameters), the game's
    "RNG state" is the number of games it has started (the next seed), and the state section the
    muster state as JSON, generator included. :func:`register` installs this (and
    :func:`deserialize_game_and_state`) into ``pyspiel`` for muster games; other games are untouched.
    """
    if not isinstance(game, MusterGame):
        return str(_ORIGINAL["serialize"](game, state))
    return f"{_HEADER}{game}\n{_GAME_RNG}{game._games}{_STATE}{state.serialize()}\n"


def deserialize_game_and_state(text: str) -> tuple[Any, Any]:
    """The game and state :func:`serialize_game_and_state` wrote (other games: OpenSpiel's own function)."""
    if not text.startswith(_HEADER) or _STATE not in text:
        return tuple(_ORIGINAL["deserialize"](text))
    head, _, body = text[len(_HEADER):].partition(_STATE)
    game_string, _, games = head.partition("\n" + _GAME_RNG)
    if not game_string.startswith("python_muster_"):
        return tuple(_ORIGINAL["deserialize"](text))
    # Parsed here, not by pyspiel.load_game(string), which reads an option like scenario=431 as a number.
    name, _, params = game_string.strip()[len("python_muster_"):].rstrip(")").partition("(")
    values = dict(pair.split("=", 1) for pair in params.split(",") if pair)
    register([name])
    # A new game object: pyspiel.load_game may hand back one already in use, whose counter this would reset.
    game = _REGISTERED[name]({k: int(v) if k == "seed" else v for k, v in values.items()})
    game._games = int(games or 0)
    return game, game.deserialize_state(body.strip())


_ORIGINAL: dict[str, Any] = {}


def _install_serialization() -> None:
    """Route pyspiel's serialize/deserialize_game_and_state to the functions above (once)."""
    if _ORIGINAL:
        return
    _ORIGINAL["serialize"] = pyspiel.serialize_game_and_state
    _ORIGINAL["deserialize"] = pyspiel.deserialize_game_and_state
    pyspiel.serialize_game_and_state = serialize_game_and_state
    pyspiel.deserialize_game_and_state = deserialize_game_and_state


# --- OpenSpiel's searches as muster bots -------------------------------------------------------

_OPTIONS = {"simulations": int, "rollouts": int, "uct": float, "worlds": int}


class OpenSpielSearchBot:
    """OpenSpiel's MCTS or ISMCTS choosing for one seat from its view (never the true state)."""

    def __init__(self, kind: str, rules: Rules, seed: int = 0, options: dict[str, str] | None = None) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        self.rules = learning_rules(rules)
        opts: dict[str, Any] = {"simulations": 16, "rollouts": 1, "uct": 2.0, "worlds": -1}
        for key, raw in (options or {}).items():
            if key not in _OPTIONS or (key == "worlds" and kind != "ismcts"):
                raise BotSpecError(f"openspiel-{kind} takes {', '.join(sorted(_OPTIONS))}; got {key!r}")
            try:
                opts[key] = _OPTIONS[key](raw)
            except ValueError:
                raise BotSpecError(f"openspiel-{kind}: {key} must be a number, got {raw!r}") from None
        if not 1 <= opts["simulations"] <= 100_000 or not 1 <= opts["rollouts"] <= 1000 or not 0 < opts["uct"] <= 100:
            raise BotSpecError(f"openspiel-{kind}: simulations 1–100000, rollouts 1–1000, uct in (0, 100]")
        self.name = f"openspiel-{kind}"
        self.kind = kind
        self.game = load(self.rules.info.name)
        self._rng = random.Random(seed)
        random_state = np.random.RandomState(seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=opts["rollouts"], random_state=random_state)
        if kind == "mcts":
            self.bot = mcts.MCTSBot(self.game, opts["uct"], opts["simulations"], evaluator,
                                    random_state=random_state, solve=False)
        else:
            worlds = ismcts.UNLIMITED_NUM_WORLD_SAMPLES if opts["worlds"] < 1 else opts["worlds"]
            self.bot = ismcts.ISMCTSBot(self.game, evaluator, opts["uct"], opts["simulations"],
                                        max_world_samples=worlds, random_state=random_state)
            # Worlds drawn from the bot's own seeded generator, so a game with the same seeds repeats.
            self.bot.set_resampler(lambda state, player: state.resample(player, self._rng.randrange(2**31)))

    def choose(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """Search a state consistent with the view and play the chosen action."""
        state = self.game.state_from(self.rules.determinize(view, seat, self._rng.randrange(2**31)))
        action = self.rules.action_from_index(int(self.bot.step(state)))
        if action not in legal:
            raise RuntimeError(f"{self.name} chose {list(action)}, which is not legal here")
        return action


def _mcts(rules: Rules, seed: int, options: dict[str, str]) -> OpenSpielSearchBot:
    return OpenSpielSearchBot("mcts", rules, seed, options)


def _ismcts(rules: Rules, seed: int, options: dict[str, str]) -> OpenSpielSearchBot:
    return OpenSpielSearchBot("ismcts", rules, seed, options)


register_bot("openspiel-mcts", _mcts)
register_bot("openspiel-ismcts", _ismcts)
