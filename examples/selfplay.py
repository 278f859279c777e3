"""Learn to play Freedom! by self-play: a small PyTorch policy/value network, CPU only, a few minutes.

    pip install 'muster[rl]' torch
    python examples/selfplay.py --games 240 --shaping 4 --eval 20 --out reports/selfplay

One network plays both seats through the PettingZoo environment (``muster.rl.pettingzoo``). It
sees each seat's observation vector (with the seat one-hot inside) and the action mask, and is
trained with REINFORCE and a learned value baseline (advantage actor-critic on whole games):
every decision where there was a real choice gets the game's final reward (+1 win, −1 loss) minus
the value the network predicted there; ``--shaping W`` adds W times the discounted changes of
muster's hand-written evaluation between the seat's choices, a denser signal (the default, 4;
``--shaping 0`` trains on the final reward alone). Then it plays
``muster arena`` against the Random and the Heuristic bots — the untrained network too, on the
same seeds, for comparison — and the results are printed with 95% intervals, the last line as
JSON. The numbers are in ``docs/research.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from muster.ai import register_bot
from muster.core import Action, Rules
from muster.core.spaces import learning_rules
from muster.core.stats import wilson
from muster.lab.arena import run_arena
from muster.rl.pettingzoo import raw_env

INPUT_SCALE = 0.1
"""Observation entries are raw counts (up to ~50); scaled so the first layer starts in a sane range."""


class PolicyValueNet(nn.Module):
    """An MLP: observation → masked action logits and a value in [−1, 1] for the seat observing."""

    def __init__(self, n_obs: int, n_actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.policy = nn.Linear(hidden, n_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (illegal actions at −1e9) and values."""
        h = self.body(obs * INPUT_SCALE)
        logits = self.policy(h).masked_fill(mask == 0, -1e9)
        return logits, torch.tanh(self.value(h)).squeeze(-1)


Sample = tuple[np.ndarray, np.ndarray, int, float]
"""(observation, action mask, action, return) of one decision."""


def self_play_game(net: PolicyValueNet, seed: int, shaping: float = 0.0,
                   gamma: float = 0.98) -> tuple[list[Sample], dict[str, float], int]:
    """One game of the network against itself.

    Returns the decisions with a real choice as (observation, mask, action, return), the final
    rewards and the steps. The return is the final reward (+1/−1) plus, with ``shaping`` > 0, that
    weight times the discounted sum of the changes in muster's evaluation of the position
    (``muster.games.freedom.bots.evaluation.win_probability``, read from the true state — a training signal, like a
    score; the network itself only ever sees observations) between the seat's successive choices.
    """
    from muster.games.freedom.bots.evaluation import win_probability

    env = raw_env("freedom")
    env.reset(seed=seed)
    per_seat: dict[str, list[tuple[np.ndarray, np.ndarray, int, float]]] = {a: [] for a in env.possible_agents}
    rewards: dict[str, float] = {}
    steps = 0
    with torch.no_grad():
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                rewards[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if len(legal) == 1:
                action = int(legal[0])
            else:
                logits, _ = net(torch.from_numpy(obs["observation"])[None], torch.from_numpy(obs["action_mask"])[None])
                action = int(torch.distributions.Categorical(logits=logits[0]).sample())
                phi = win_probability(env.unwrapped.state, agent) if shaping else 0.0
                per_seat[agent].append((obs["observation"], obs["action_mask"], action, phi))
            env.step(action)
            steps += 1
    samples = []
    for seat, seq in per_seat.items():
        final = rewards[seat]
        phis = [phi for *_, phi in seq] + [1.0 if final > 0 else 0.0 if final < 0 else 0.5]
        shaped = 0.0
        returns = []
        for j in range(len(seq) - 1, -1, -1):  # discounted sum of the evaluation's changes, from the end
            shaped = (phis[j + 1] - phis[j]) + gamma * shaped
            returns.append(final + shaping * shaped)
        returns.reverse()
        samples += [(o, m, a, g) for (o, m, a, _), g in zip(seq, returns, strict=True)]
    return samples, rewards, steps


def train(net: PolicyValueNet, games: int, batch: int, seed: int, lr: float = 1e-3,
          shaping: float = 0.0) -> dict[str, Any]:
    """Self-play training; returns what happened (games, decisions, seconds, Imperial win rate by stage)."""
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    t0, steps, decisions, history = time.perf_counter(), 0, 0, []
    buffer: list[tuple[np.ndarray, np.ndarray, int, float]] = []
    wins = 0
    for g in range(games):
        samples, rewards, n = self_play_game(net, seed + g, shaping)
        steps += n
        decisions += len(samples)
        wins += rewards.get("imperial", 0.0) > 0
        buffer += samples
        if (g + 1) % batch == 0:
            obs = torch.from_numpy(np.stack([b[0] for b in buffer]))
            mask = torch.from_numpy(np.stack([b[1] for b in buffer]))
            act = torch.tensor([b[2] for b in buffer])
            ret = torch.tensor([b[3] for b in buffer], dtype=torch.float32)
            logits, value = net(obs, mask)
            logp = torch.log_softmax(logits, -1)
            chosen = logp.gather(1, act[:, None]).squeeze(1)
            advantage = (ret - value).detach()
            entropy = -(logp.exp() * logp.clamp(min=-30)).sum(-1).mean()
            loss = -(chosen * advantage).mean() + 0.5 * ((ret - value) ** 2).mean() - 0.01 * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            loss_value, entropy_value = float(loss.detach()), float(entropy.detach())
            history.append({"games": g + 1, "loss": round(loss_value, 4), "entropy": round(entropy_value, 3),
                            "imperial_win_rate": round(wins / batch, 3)})
            print(f"games {g + 1:5d}  loss {loss_value:+.3f}  entropy {entropy_value:.2f}  "
                  f"self-play Imperial wins {wins}/{batch}  ({time.perf_counter() - t0:.0f} s)", flush=True)
            buffer, wins = [], 0
    return {"games": games, "steps": steps, "decisions_trained": decisions,
            "seconds": round(time.perf_counter() - t0, 1), "history": history}


class PolicyBot:
    """The network as a muster bot: the most probable legal action for the observation of its view."""

    def __init__(self, rules: Rules, net: PolicyValueNet, seed: int = 0) -> None:
        self.rules = learning_rules(rules)
        self.net = net
        self.name = "policy"
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action], seat: str) -> Action:
        """Greedy over the legal actions. The observation comes from a state rebuilt from the view —
        identical to the true state's (the observation is a function of the view)."""
        state = self.rules.determinize(view, seat, self._rng.randrange(2**31))
        obs = torch.from_numpy(self.rules.observation(state, seat))[None]
        mask = torch.from_numpy(self.rules.action_space.mask(legal))[None]
        with torch.no_grad():
            logits, _ = self.net(obs, mask)
        return self.rules.action_from_index(int(logits[0].argmax()))


def evaluate(name: str, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """``games`` paired seeds (seats swapped) against ``opponent`` in the arena; win rate with its 95% interval."""
    report = run_arena([name, opponent], games, seed=seed, workers=1, show_progress=False)
    wins = sum(1 for r in report.records if r.winner and getattr(r, r.winner) == name)
    n = len(report.records)
    rate, low, high = wilson(wins, n)
    by_side = {seat: list(v) for seat, v in report.by_side(name).items()}
    elo = next(r for r in report.ratings if r.name == name)
    return {"opponent": opponent, "games": n, "wins": wins, "win_rate": round(rate, 3),
            "ci95": [round(low, 3), round(high, 3)], "by_side": by_side,
            "elo_vs_opponent": [round(elo.elo, 0), round(elo.low, 0), round(elo.high, 0)]}


def main() -> None:
    """Train, evaluate, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="self-play games to train on")
    parser.add_argument("--batch", type=int, default=4, help="games per gradient step")
    parser.add_argument("--eval", type=int, default=20, help="paired seeds per evaluation (2 games each)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shaping", type=float, default=4.0,
                        help="weight of the evaluation-change reward added to the final one (0: final reward only)")
    parser.add_argument("--out", type=Path, default=Path("reports/selfplay"))
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rules = learning_rules(__import__("muster.core", fromlist=["get_rules"]).get_rules("freedom"))
    untrained = PolicyValueNet(rules.observation_shape()[0], rules.action_space.size)
    net = PolicyValueNet(rules.observation_shape()[0], rules.action_space.size)
    net.load_state_dict(untrained.state_dict())
    register_bot("untrained", lambda r, s, o: PolicyBot(r, untrained, s))
    register_bot("policy", lambda r, s, o: PolicyBot(r, net, s))
    training = train(net, args.games, args.batch, seed=1_000_000 + args.seed, shaping=args.shaping)
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), args.out / "policy.pt")
    eval_seed = 50_000
    results: dict[str, Any] = {"training": {**{k: v for k, v in training.items() if k != "history"},
                                            "shaping": args.shaping},
               "parameters": sum(p.numel() for p in net.parameters()), "evaluation": {}}
    for name in ("untrained", "policy"):
        for opponent in ("random", "heuristic"):
            t0 = time.perf_counter()
            res = evaluate(name, opponent, args.eval, eval_seed)
            results["evaluation"][f"{name}_vs_{opponent}"] = res
            print(f"{name} vs {opponent}: {res['wins']}/{res['games']} = {res['win_rate']:.1%} "
                  f"(95% CI {res['ci95'][0]:.1%}–{res['ci95'][1]:.1%}); as Imperial {res['by_side']['imperial']}, "
                  f"as Insurgent {res['by_side']['insurgent']}  ({time.perf_counter() - t0:.0f} s)", flush=True)
    (args.out / "selfplay.json").write_text(json.dumps({**results, "history": training["history"]}, indent=2))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
