"""Werner: Volle Socke

+-----------------------+-----------------------------------------------------------------------+
| Import                | ``from envs import volle_socke_v0``                                   |
| Actions               | Discrete(156), masked                                                 |
| Parallel API          | yes (turn-based, via ``turn_based_aec_to_parallel``)                  |
| Manual control        | no                                                                    |
| Agents                | ``player_0`` ... ``player_{n-1}``, n = 2..8 (default 4)               |
| Observation shape     | ``{"observation": float32[OBS_SIZE], "action_mask": int8[156]}``      |
| Observation values    | counts, one-hots and horsepower; bounds in the observation space      |
| Reward                | final placement: +1 best ... -1 worst (optional per-round shaping)    |
+-----------------------+-----------------------------------------------------------------------+

Build the strongest motorbike of the table with Werner's cards (ASS, 1990), ten rounds long.
Each round the seats first *build*: take the top of the face-down draw pile or the face-up card,
then discard one card face up. Someone knocks (between taking and discarding); every other seat
then has exactly one more turn. In the *horsepower contest* the knocker lays out a bike first
(at least front wheel, engine and rear wheel), then the others in seat order; a seat that cannot
is out of the round. Then, turn by turn from the knocker, each seat plays one card, the
rulebook's four options: a) it removes a card from its own bike (face up onto the discard pile),
b) a misery card on another bike (Motor her, Rad her, TÜV, Bull, Nail), c) a hand card face down
on the discard pile, or d) a hand card in place of one of its bike cards of that role (the old one
goes face up onto the discard pile); or it passes (an Air Pump may also pump up its own flat tyre).
A hand card never goes where no card lies: no Turbo, no further engine, no wheel into an empty
slot (option ``refill_from_hand``: d) fills an empty slot too; option ``own_bike="add"``: a) lays
a hand card onto the own bike instead, a further engine, a Turbo, a missing wheel, a spare part in
any role). Before its play a seat may move each of its laid-out spare parts once into another
role (into an empty slot too). The target of a misery card answers at once with a fitting joy card
(Da lach ich doch über against any misery, Fuck for TÜV against TÜV, Air Pump against Nail) or
accepts; for Motor her and Rad her it then picks the engine or wheel it hands over. The round ends
when every seat still in it has passed in a row. A bike scores its engine power x 2 per Turbo x the
rear wheel's gear, halved by a wooden front wheel and 0 with a flat front tyre; over the game the
best 8 of each seat's 10 round scores count.

Rules the rulebook leaves open are decided in ``docs/rules/volle_socke.md``.

Observation
-----------
Seats in every per-seat block are relative: row 0 is you, row 1 the next seat in turn order, and
so on (rows of absent seats are zero). The vector holds only what your seat can know: your hand,
the size of every hand and the cards everybody knows to be in it, every bike, the discard pile's
face-up top, the discard cards you know, the draw pile's size, the scores, round and phase; never
another hand's unknown cards, nor the draw pile's order, nor another seat's face-down discards.
``env.observation_layout.views(obs)`` returns the named blocks.

{observation_table}

Actions
-------
One flat ``Discrete(156)``; the mask lists the legal ones. Cards are named by kind (``data.NAMES``).

======================  ====================================================================
0 / 1                   building: take the top of the draw pile / the face-up card
2                       building: knock (after taking, before discarding)
3                       lay-out: finish laying out (the bike is complete)
4                       contest: pass
5 / 6 / 7 / 8           react to a misery card: accept / Da lach ich doch über / Fuck for TÜV / Air Pump
9                       contest, ``own_bike="add"`` only: the engine just fitted joins the others
                        (a); none goes
10 + kind (26)          discard a hand card (face up while building, face down in the contest)
36 + f (31)             fit a hand card onto the own bike in a role (``engine.FIT_KIND/FIT_ROLE``):
                        lay it out; in the contest put it in place of the card in that role (d:
                        the old card goes to the discard pile; for an engine the next decision
                        says which engine goes), or with ``own_bike="add"`` add it (a; for an
                        engine action 9: none goes); pump up the own flat tyre; or choose the
                        role of a received spare part
67 + 3 s + r (18)       move the own laid-out spare part s into role r (front / rear / engine);
                        a wheel in that slot goes to the discard pile; the turn goes on
85 + b (18)             a) remove the card of bike kind b from the own bike (face up to the
                        discard pile; not with ``own_bike="add"``)
103 + b (18)            choose the bike card of kind b: the card a misery card aims at, the card
                        the victim of Motor her / Rad her hands over, or the engine a newly
                        fitted engine replaces
121 + 7 m + k - 1 (35)  play misery card m (Motor her, Rad her, TÜV, Bull, Nail) on the seat k
                        places after you (k = 1..7)
======================  ====================================================================

Bike kinds b: Turbo, the six spare parts, engines 10/20/50/100, front wheel normal/flat/wooden,
rear wheel gears 1-4.

Rewards
-------
At the end of the game every seat gets its placement by total (best ``counted_rounds`` rounds):
+1 for the best, -1 for the worst, evenly spread between; tied seats share the rewards of their
places. With ``round_rewards=True`` each round's end also gives the placement of that round's
scores, divided by ``num_rounds``.

Options
-------
``num_players`` (2-8, default 4), ``num_rounds`` (1-10, default 10), ``counted_rounds`` (default
8, or every round when there are fewer), ``flat_front`` ("zero": a flat front tyre scores 0;
"half": it halves the value), ``own_bike`` ("remove": the contest's option a) as the rulebook
says, a card comes off the own bike onto the discard pile, and a hand card only replaces a bike
card, d); "add": a) lays a hand card onto the own bike, a further engine, a Turbo, a missing
wheel), ``refill_from_hand`` (False; True: with ``own_bike="remove"``, d) also puts a hand card
into a slot a misery card emptied), ``her_choice`` ("victim": the attacked seat
picks the engine / wheel Motor her / Rad her takes; "attacker": the attacker picks it),
``round_rewards``, ``max_cycles``, ``illegal_action``, ``render_mode``.
"""

from envs.core import Game, Option, int_range
from envs.core.aec import TabletopAECEnv, make_env_functions

from . import engine, render
from .data import NAMES, ROLE_NAMES, ROLE_PUMP, ROLE_TURBO

_FIXED_NAMES = ("take the top of the draw pile", "take the face-up card", "knock", "finish laying out", "pass",
                "accept the misery card", "react with Da lach ich doch über", "react with Fuck for TÜV",
                "react with Air Pump", "add the engine beside the others (none goes)")
_MISERY_NAMES = ("Motor her", "Rad her", "TÜV", "Bull", "Nail")
_BIKE_NAMES = [NAMES[kind] for kind in engine.BIKE_KINDS]


def action_name(action, config=None):
    """A readable name of ``action`` (the same in every phase)."""
    if not 0 <= action < engine.NUM_ACTIONS:
        return f"invalid action {action}"
    if action < engine.DISCARD_BASE:
        return _FIXED_NAMES[action]
    if action < engine.FIT_BASE:
        return f"discard {NAMES[action - engine.DISCARD_BASE]}"
    if action < engine.MOVE_BASE:
        f = action - engine.FIT_BASE
        kind, role = engine.FIT_KIND[f], engine.FIT_ROLE[f]
        if role == ROLE_PUMP:
            return "pump up the own flat tyre (Air Pump)"
        if role == ROLE_TURBO:
            return "add Turbo to the own bike"
        return f"fit {NAMES[kind]} as {ROLE_NAMES[role]}"
    if action < engine.REMOVE_BASE:
        s, role = divmod(action - engine.MOVE_BASE, 3)
        return f"move {NAMES[engine.SPARE_0 + s]} to {ROLE_NAMES[role]}"
    if action < engine.SLOT_BASE:
        return f"remove {_BIKE_NAMES[action - engine.REMOVE_BASE]} from own bike"
    if action < engine.MISERY_BASE:
        # the card a misery card aims at, the card a victim hands over, or the engine that is replaced
        return f"pick {_BIKE_NAMES[action - engine.SLOT_BASE]} on a bike"
    m, k = divmod(action - engine.MISERY_BASE, engine.MAX_PLAYERS - 1)
    target = "the next player" if k == 0 else f"the player {k + 1} seats after you"
    return f"play {_MISERY_NAMES[m]} on {target}"


def _check_counted(value):
    if value is None:
        return None
    return int_range(1, engine.MAX_ROUNDS)(value)


GAME = Game(
    env_id="volle_socke_v0",
    engine=engine,
    player_counts=tuple(range(2, 9)),
    default_players=4,
    layout=engine.LAYOUT,
    num_actions=engine.NUM_ACTIONS,
    action_name=action_name,
    render=render,
    options={
        "num_rounds": Option(10, "rounds in a game", check=int_range(1, engine.MAX_ROUNDS)),
        "counted_rounds": Option(None, "best rounds of each seat that count (None: 8, or all if fewer rounds)",
                                 check=_check_counted),
        "flat_front": Option("zero", "a flat front tyre scores 0 ('zero') or halves the value ('half')",
                             choices=("zero", "half")),
        "own_bike": Option("remove", "the contest's option a): 'remove' a card from the own bike (the rulebook's "
                           "text), or 'add' a hand card onto it (an engine, a Turbo, a missing wheel, a spare part)",
                           choices=("remove", "add")),
        "refill_from_hand": Option(False, "with own_bike='remove': d) may also put a hand card into an empty slot "
                                   "(a wheel a misery card took, the last engine); 'add' fills them anyway",
                                   choices=(False, True)),
        "her_choice": Option("victim", "who picks the card Motor her / Rad her takes: the 'victim' or the 'attacker'",
                             choices=("victim", "attacker")),
        "round_rewards": Option(False, "also reward each round's placement (divided by num_rounds)",
                                choices=(False, True)),
    },
    default_max_cycles=20_000,
    description="Werner: Volle Socke (ASS 1990): build a motorbike, fight with joy and misery cards, 10 rounds",
)

__doc__ = __doc__.replace("{observation_table}", engine.LAYOUT.table()).replace("OBS_SIZE", str(engine.LAYOUT.size))


class raw_env(TabletopAECEnv):
    """Werner: Volle Socke as a PettingZoo AEC environment (see the module docstring)."""

    game = GAME


env, raw_env, parallel_env = make_env_functions(raw_env)
