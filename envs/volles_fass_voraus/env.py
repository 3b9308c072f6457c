"""# Volles Fass voraus

| Import             | `from envs import volles_fass_voraus_v0`            |
|--------------------|-----------------------------------------------------|
| Actions            | Discrete({num_actions})                                       |
| Parallel API       | yes (turn-based: via `turn_based_aec_to_parallel`)  |
| Agents             | `agents = ["player_0", ..., "player_{n-1}"]`, n in 2..4 |
| Observation shape  | ({obs_size},)                                             |
| Observation values | see the layout table below                          |

Zoch's barrel-shipping game (Giansimone Migoni). Four ships sail from the start harbour through
eight loading, ten mixed and eight unloading harbours (all 26 harbour tiles, laid at random into
the recesses of their shape, face up from the start) to the destination; option ``route="short"``
sails 3 + 4 + 3 of them. Ships leave each harbour west to east; the mover picks a free berth in
the next harbour and carries out its actions: load barrels onto the deck, unload them for doubloons
(only barrels that can be pulled straight back over the loading dock without touching another),
hire sailors, draw secret treasure maps, and suffer pirates, seasickness and storms. Ships
without a player take the easternmost free berth and do nothing. At the destination treasure
maps are scored; the most doubloons wins, ties going to the ship further west.

Our design of the tiles, the deck and the cards, and every decision where the rulebook is
silent: ``docs/rules/volles_fass_voraus.md``.

## Actions

One flat space; which block is legal depends on the phase (the observation's ``phase``):

| actions | meaning |
|---|---|
| 0-3 | berth 1-4 (west to east): the starting berth, or the berth in the next harbour |
| 4-17 | deck space 0-13: place the barrel in hand / unload this barrel / lose it to pirates or the storm |
| 18-20 | load a purple / orange / colourless barrel at a loading berth |
| 21-40 | sailor card 0-19: give it up (seasick), take it or give it (storm chaos) |
| 41 | hire the sailor and take the barrel (one price for both) |
| 42 | hire the sailor only (same price) |
| 43 | take the barrel only (same price) |
| 44 | draw the treasure maps (paying their price) |
| 45 | pass: stop loading, do not unload, decline, skip storm chaos (with Stormy D.), end the turn |
| 46-101 | Barry Fassel / Farry Bassel: move the barrel on one space to an adjacent one (slide or swap) |

A decision with a single legal action is taken automatically, so every decision an agent sees
is a real choice. Barry / Farry moves are offered in every phase of the owner's turn and once
more at its end, one move per card per turn (option ``fassel_moves_per_turn``).

## Observation

``{"observation": float32[{obs_size}], "action_mask": int8[{num_actions}]}``. Other ships are listed relative
to the observer (0 = you, then the seats after you, then ships without a player). The route's
harbours fill the first entries of the harbour blocks (28 on the full route, 12 on the short one;
the rest read zero). Face-down harbours (only with ``harbour_reveal="on_approach"``) read zero;
other players' treasure maps appear only as a count; the order of the sailor and map piles is
never shown. The ``ahead`` block repeats the harbour the ships of this leg head for (the start
harbour while start berths are chosen) as one fixed row per berth action 0-3: its berth features,
whether it is free and whose ship lies there, whether you can afford it, whether your deck can
deliver the barrels it asks now, what your sailors do there (fishers' / sail sisters' arrival pay,
pirates or storm they cancel, plaza pay per barrel unloaded) and how many barrels it could put on
your deck (``engine.AHEAD_FEATURE_NAMES``). The ``deck_geometry`` block
reads your own deck space by space as the corridors to the dock make it: how many of your barrels
a barrel there alone keeps stuck, and for an empty space what a barrel put there would do (block
free barrels, be stuck itself, cross the way of empty spaces; ``engine.DECK_GEOMETRY_NAMES``).
``env.observation_layout.views(obs)`` gives named views:

{layout}

## Rewards

At the end: +1 for the winner, -1 for the last, placings spread evenly between
(``1 - 2 * rank / (n - 1)``); ties in doubloons go to the ship further west at the destination.
With ``doubloon_shaping = s > 0`` every step also pays each seat ``s`` times its doubloon change.

## Options

{options}
"""

from envs.core import Game, Option
from envs.core.aec import TabletopAECEnv, make_env_functions

from . import data, engine, render


def _check_shaping(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        return "expected a number from 0 to 1"
    return None


OPTIONS = {
    "route": Option(
        "full", "'full': start, all 26 harbour tiles (8 loading, 10 mixed, 8 unloading), destination; "
        "'short': 3 + 4 + 3 of the tiles, for quick experiments", choices=data.ROUTE_NAMES),
    "harbour_reveal": Option(
        "all_at_start", "'all_at_start': each tile is laid face up at setup (the rulebook); "
        "'on_approach': a harbour's tile turns face up only when the ships set off for it",
        choices=("all_at_start", "on_approach")),
    "fassel_moves_per_turn": Option(
        1, "moves each Barry Fassel / Farry Bassel card allows per turn", choices=(1, 2, 3)),
    "hired_sailor_pays_at_once": Option(
        True, "a fisher / sail sister hired on a fish / sail berth pays that berth at once", choices=(True, False)),
    "doubloon_shaping": Option(0.0, "reward per doubloon gained or lost each step (0: off)", check=_check_shaping),
}


def action_name(action, config=None):
    if action < engine.A_SPACE:
        return f"berth {action - engine.A_BERTH + 1}"
    if action < engine.A_COLOUR:
        return f"deck space {action - engine.A_SPACE}"
    if action < engine.A_SAILOR:
        return f"load a {data.COLOURS[action - engine.A_COLOUR]} barrel"
    if action < engine.A_SAILOR_BOTH:
        return f"sailor {data.SAILOR_NAMES[action - engine.A_SAILOR]}"
    if action < engine.A_MOVE:
        return ("hire sailor and take barrel", "hire sailor only", "take barrel only", "take treasure maps",
                "pass")[action - engine.A_SAILOR_BOTH]
    move = action - engine.A_MOVE
    return f"Barry/Farry: barrel {data.MOVE_FROM[move]} -> space {data.MOVE_TO[move]}"


GAME = Game(
    env_id="volles_fass_voraus_v0",
    engine=engine,
    player_counts=(2, 3, 4),
    default_players=4,
    layout=engine.LAYOUT,
    num_actions=engine.NUM_ACTIONS,
    action_name=action_name,
    render=render,
    options=OPTIONS,
    default_max_cycles=10_000,
    description="Volles Fass voraus: load barrels, pull them off the deck, hire sailors, hunt treasure",
)


def _options_table():
    rows = ["| option | default | meaning |", "|---|---|---|"]
    for name, option in GAME.all_options().items():
        rows.append(f"| `{name}` | `{option.default!r}` | {option.doc} |")
    return "\n".join(rows)


__doc__ = (__doc__.replace("{layout}", engine.LAYOUT.table()).replace("{options}", _options_table())
           .replace("{obs_size}", str(engine.LAYOUT.size)).replace("{num_actions}", str(engine.NUM_ACTIONS)))


class raw_env(TabletopAECEnv):
    __doc__ = __doc__
    game = GAME


env, raw_env, parallel_env = make_env_functions(raw_env)
