"""Voll auf die 18: the cooperative real-time card game against Nazis, as a PettingZoo environment.

| | |
|---|---|
| Import | ``from envs import voll_auf_die_18_v0`` |
| Actions | Discrete(509), every seat every step |
| API | Parallel (``parallel_env()``: every seat acts in every step) and AEC (``env()``, ``raw_env()``: within each step the seats act one after another, and the step is played when the last has acted) |
| Agents | ``player_0`` .. ``player_{n-1}``, n = 2..5 |
| Observation | ``{"observation": float32[OBS_SIZE], "action_mask": int8[509]}`` |

Everyone plays at once against the clock: the chapter lasts 18 minutes, a new Nazi turns up every
33-45 s, and each env step is one moment of ``seconds_per_step`` seconds in which every seat takes
one action. Arguments (cards 1-6 in four colours) whose values add up to a face-up Nazi's IQ
exactly convince it; alone or as a team, each character by its own rule (Kangaroo: one colour,
Kleinkünstler: a straight, Krapotke: dice, Maria: digital numbers from the card backs, ...), and
super nasty Nazis add colour, number-ban or all-against-one requirements. The team wins when every
Nazi is convinced in time (plus the chapter's extra goals); it loses when 5 Nazis lie face up,
when time runs out, or when the Arguments left can no longer convince the Nazis left. All 18
chapters of the rulebook are data (``chapter=1..18``); ``chapter=19`` deals a random one.

Actions (one flat space; see ``action_to_str``):

| range | action |
|---|---|
| 0 | wait |
| 1-55 | argue: lay 2-4 hand cards (Krapotke: dice) ``subset`` at Nazi ``slot`` (slot * 11 + subset) |
| 56-60 | withdraw my cards from the pool of Nazi ``slot`` |
| 61-76 | offer hand slot ``i`` to the player ``r`` seats on ((r - 1) * 4 + i) |
| 77-92 | accept the offer of the player ``r`` seats on, giving hand slot ``i`` |
| 93-488 | Bib: swap hand slot ``i`` for Bib card ``c`` (same colour or value), or draw ``c`` into an empty |
| | slot when drawing from the Bib is allowed (i * 99 + c) |
| 489-498 | expand the Bib from stack 0..4, or activate the talent space of the player 0..4 seats on |
| 499-502 | Krapotke: roll die k |
| 503 | Krapotke: roll all dice (frees blocked 6s) |
| 504 | emergency redraw (once per chapter, for everyone) |
| 505-508 | Blind Trust with full communication: tell the player ``r`` seats on the fronts of her hand (r - 1) |

Nazi slots: 0 is the top of the Nazi stack, 1-4 the spaces around it. Subsets list the hand slots
in the order 01, 02, 12, 03, 13, 23, 012, 013, 023, 123, 0123.

Rewards: shared: +1 to every seat when the chapter is won, -1 when it is lost; with
``reward_shaping=True`` also +1/18 per Nazi convinced.

Information: ``communication="full"`` (the rulebook lets players share everything) shows every
hand to every seat, except in Blind Trust a seat's own fronts (unless it is God): a team-mate must
spend a step telling her (``tell``), and cards she draws later are unknown to her again.
``"none"`` shows each seat the fronts that face it: its own, Maria's (she holds her cards the wrong
way round) and, in Blind Trust, everyone's but God's; the backs of all. Nobody sees
the order of the stacks. ``infos[agent]["hints"]`` (``hints=True``) holds, per Nazi slot, one
exact team argumentation the seat can know of (hand-slot subsets per relative seat, 0: none) and
``infos[agent]["ways"]`` how many there are; ``observe_hints=True`` writes the same into the
observation (blocks ``hint_slots`` and ``hint_argue``) and, per legal offer, accept and Bib action,
how many more face-up Nazis the team can then convince (over the fronts the seat knows; negative:
fewer; /5: blocks ``hint_offer``, ``hint_accept``, ``hint_bib``, ``engine.exchange_gains``). The hint
blocks come last: they are always there, all zero without the option, so a policy's input has one
size whatever the options.
``infos[agent]["end_reason"]`` is why the game ended, an int code named by
``engine.END_REASON_NAMES``: 0 while it runs, then won, 5 Nazis face up, time ran out, or one of
the ways to run out of Arguments that the engine recognises the moment they are certain. Infos hold numbers and arrays only, the same keys at every step.

Options (besides ``num_players``, ``max_cycles``, ``illegal_action``, ``render_mode``):
``chapter`` (1-18, 19 random; default 1), ``seconds_per_step`` (1-60, default 3),
``communication`` ("full" | "none"), ``characters`` (None or one name per seat: kangaroo,
kleinkuenstler, friedrich_wilhelm, otto_von, maria, krapotke, god, herta), ``reward_shaping``
(False), ``hints`` (True), ``observe_hints`` (False), ``chapter19_seed`` (None: a new random chapter every game),
``bib_start`` (None: 8/3/2/1 open Bib cards for 2/3/4/5 players), ``timing`` ("table": an action
keeps its seat busy for as long as it takes at the table, ``data.ACTION_SECONDS`` times the pace;
"step": every action takes one step), ``pace`` (None: ``data.TABLE_PACE``, 0.5/2/3/4 for 2/3/4/5
players; or a factor from 0.1 to 10), ``action_seconds`` (None, or a dict of whole seconds per
kind that replace the paced times). Every rule and every decision where the rulebook is silent,
and the calibration of the clock by group size: ``docs/rules/voll_auf_die_18.md``.

Observation blocks (relative seats: 0 is the observing seat, 1 the next, ...):

"""

import numpy as np

from envs.core import Game, Option, int_range
from envs.core.aec import TabletopSimultaneousAECEnv, make_env_functions
from envs.core.parallel import TabletopParallelEnv

from . import data as D
from . import engine as E
from . import render

SLOT_NAMES = ("the stack top", "space 1", "space 2", "space 3", "space 4")


def card_name(card):
    if card >= D.NUM_ARGUMENTS:
        return "Razupaltuff"
    return f"{D.COLOUR_NAMES[D.CARD_COLOUR[card]]} {D.CARD_VALUE[card]} (#{card})"


def action_name(action, config):
    a = int(action)
    if a == E.A_WAIT:
        return "wait"
    if E.A_ARGUE <= a < E.A_WITHDRAW:
        slot, subset = divmod(a - E.A_ARGUE, E.NUM_SUBSETS)
        members = "+".join(str(i) for i in range(4) if E.SUBSETS[subset] >> i & 1)
        return f"argue with slots {members} at {SLOT_NAMES[slot]}"
    if E.A_WITHDRAW <= a < E.A_OFFER:
        return f"withdraw from {SLOT_NAMES[a - E.A_WITHDRAW]}"
    if E.A_OFFER <= a < E.A_ACCEPT:
        rel, i = divmod(a - E.A_OFFER, E.HAND)
        return f"offer slot {i} to player +{rel + 1}"
    if E.A_ACCEPT <= a < E.A_BIB:
        rel, i = divmod(a - E.A_ACCEPT, E.HAND)
        return f"accept the offer of player +{rel + 1}, giving slot {i}"
    if E.A_BIB <= a < E.A_EXPAND:
        i, card = divmod(a - E.A_BIB, E.NUM_ARG)
        return f"Bib: slot {i} for {card_name(card)}"
    if E.A_EXPAND <= a < E.A_ROLL:
        target = a - E.A_EXPAND
        if target < D.RUN_OUT_STACKS:
            return f"expand the Bib from stack {target}"
        return f"activate the talent of player +{target - D.RUN_OUT_STACKS}"
    if E.A_ROLL <= a < E.A_ROLL_ALL:
        return f"roll the {D.COLOUR_NAMES[a - E.A_ROLL]} die"
    if a == E.A_ROLL_ALL:
        return "roll all dice"
    if a == E.A_EMERGENCY:
        return "emergency redraw"
    if E.A_TELL <= a < E.NUM_ACTIONS:
        return f"tell player +{a - E.A_TELL + 1} her cards"
    return f"action {a} (out of range)"


def _check_characters(value):
    if value is None:
        return None
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        return f"expected None or a list of character names from {list(D.CHARACTER_IDS)}"
    names = list(value)
    unknown = [n for n in names if n not in D.CHARACTER_IDS]
    if unknown:
        return f"unknown character(s) {unknown}; choose from {list(D.CHARACTER_IDS)}"
    if len(set(names)) != len(names):
        return "each character can be played by one seat only"
    return None


def _check_seed(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < 2**63:
        return "expected None or an integer in [0, 2**63)"
    return None


def _check_bib(value):
    if value is None:
        return None
    return int_range(0, 20)(value)


def _check_action_seconds(value):
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - set(D.ACTION_SECONDS):
        return f"expected None or a dict with keys from {list(D.ACTION_SECONDS)}"
    if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v <= 600 for v in value.values()):
        return "expected whole seconds from 0 to 600"
    return None


def _check_pace(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not 0.1 <= value <= 10:
        return "expected None or a number from 0.1 to 10"
    return None


def infos(state, config, seat):
    """Per seat: the hints (what the argument search finds among the hands this seat can see)
    and why the game ended (``end_reason``, an int: see END_REASON_NAMES; 0 while it runs)."""
    info = {}
    if config["hints"]:
        states = state.base  # the env's length-1 record array (numba takes arrays cheaply)
        if not (isinstance(states, np.ndarray) and states.shape == (1,) and states.dtype == E.STATE):
            states = np.array([state], E.STATE)
        hint = np.zeros((E.NUM_SLOTS, config["num_players"]), np.int8)
        ways = np.zeros(E.NUM_SLOTS, np.int16)
        E.hints(states, seat, hint, ways)
        info["hints"], info["ways"] = hint, ways
    info["end_reason"] = int(state["end_reason"])  # a code: its name is engine.END_REASON_NAMES[code]
    return info


OPTIONS = {
    "chapter": Option(1, "chapter 1..18 of the rulebook, 19: a random chapter", check=int_range(1, 19)),
    "seconds_per_step": Option(3, "game seconds one step (one action of every seat) takes", check=int_range(1, 60)),
    "communication": Option("full", "'full': every seat sees all hands (except what the chapter hides); "
                                    "'none': only its own", choices=("full", "none")),
    "characters": Option(None, "None (the chapter's characters) or one character name per seat",
                         check=_check_characters),
    "reward_shaping": Option(False, "also reward +1/18 per Nazi convinced", choices=(False, True)),
    "hints": Option(True, "put the argument search's hints into infos", choices=(False, True)),
    "observe_hints": Option(False, "write the hints (for the observing seat, as infos['hints']) into the "
                                   "observation's hint_slots and hint_argue blocks, and what each legal "
                                   "exchange gains into hint_offer, hint_accept, hint_bib (False: all stay 0)",
                            choices=(False, True), observation=True),
    "chapter19_seed": Option(None, "chapter 19: None draws a new random chapter each game; an int fixes it",
                             check=_check_seed),
    "bib_start": Option(None, "open Bib cards at setup (None: 8/3/2/1 for 2/3/4/5 players)", check=_check_bib),
    "timing": Option("table", "'table': an action keeps its seat busy as long as it takes at the table "
                              "(data.ACTION_SECONDS times the pace); 'step': every action takes one step",
                     choices=("table", "step")),
    "pace": Option(None, "a factor on data.ACTION_SECONDS (None: data.TABLE_PACE for the group size)",
                   check=_check_pace),
    "action_seconds": Option(None, "None, or a dict of whole seconds per kind replacing the paced times "
                                   "(e.g. {'argue': 20})", check=_check_action_seconds),
}

GAME = Game(
    env_id="voll_auf_die_18_v0",
    engine=E,
    player_counts=(2, 3, 4, 5),
    default_players=2,
    layout=E.LAYOUT,
    num_actions=E.NUM_ACTIONS,
    action_name=action_name,
    render=render,
    options=OPTIONS,
    simultaneous=True,
    default_max_cycles=None,  # the clock ends every game (18 min / seconds_per_step steps at most)
    infos=infos,
    description="Voll auf die 18: cooperative real-time arguing against Nazis (all 18 chapters)",
)

__doc__ = __doc__.replace("OBS_SIZE", str(E.LAYOUT.size)) + E.LAYOUT.table()


class raw_env(TabletopSimultaneousAECEnv):  # noqa: N801 (PettingZoo's name)
    __doc__ = __doc__
    game = GAME


class VollAufDie18Parallel(TabletopParallelEnv):
    __doc__ = __doc__
    game = GAME


env, raw_env, parallel_env = make_env_functions(raw_env, VollAufDie18Parallel)
