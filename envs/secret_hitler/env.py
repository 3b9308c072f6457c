"""Secret Hitler: hidden-role social deduction for 5-10 players (``secret_hitler_v0``).

| | |
|---|---|
| Import | ``from envs import secret_hitler_v0`` |
| API | AEC (turn-based); Parallel through ``secret_hitler_v0.parallel_env()`` |
| Agents | ``player_0`` ... ``player_{n-1}``, n = 5..10 (default 7) |
| Actions | ``Discrete(36)``, masked |
| Observations | ``{"observation": Box(0, 30, (2817,), float32), "action_mask": Box(0, 1, (36,), int8)}`` |

The liberals (the majority) win by enacting 5 liberal policies or executing Hitler; the fascists
win by enacting 6 fascist policies or electing Hitler chancellor once 3 fascist policies are
enacted. Fascists know each other and Hitler; Hitler knows nobody (option
``hitler_knows_fascists``). Each round a president nominates a chancellor (not the president or
the chancellor that enacted the last policy: option ``term_limits``), every living player votes,
and an elected government enacts one of three policies drawn by the president (the president
discards one, the chancellor one; with fewer than three left the discards are shuffled in first:
option ``reshuffle``). Fascist policies give the president powers (investigate, special election,
policy peek, execution) by player count. The defaults follow the rulebook
(``shared/rulebooks/secret_hitler.txt``); the options give the official rules' variants. Every
rule and every decision taken where the rulebook is silent: ``docs/rules/secret_hitler.md``.

Seats act one at a time. Voting is simultaneous at the table: here the living seats vote one
after another (the president first, then to its left), but no ballot appears in any observation
until every living player has voted; then all ballots are public, in the history.

Talk is structured as **claims** (option ``claims``, default on): after each legislative session
the president, then the chancellor, claims how many fascist policies it saw (3 drawn / 2 received)
or makes no claim; after an investigation the president claims the party it saw; after a peek,
how many of the 3 were fascist. Claims may be lies; they are public and enter the history.

## Actions

| action | meaning | phase |
|---|---|---|
| 0-9 | nominate player k as chancellor | nomination (president) |
| 10, 11 | vote ja, vote nein | election (each living player) |
| 12, 13 | president discards a liberal / fascist policy | president legislates |
| 14, 15 | chancellor discards a liberal / fascist policy (the other is enacted) | chancellor legislates |
| 16 | chancellor proposes a veto (5 fascist policies enacted) | chancellor legislates |
| 17, 18 | president consents to / refuses the veto | veto |
| 19-28 | player k: investigate / call special election / execute | the power's phase (president) |
| 29-32 | claim k = 0..3 fascist policies seen | president claim (0..3), chancellor claim (0..2), peek claim (0..3) |
| 33, 34 | claim the investigated player is liberal / fascist | investigation claim |
| 35 | no claim | every claim phase |

## Observation

The observation is the seat's whole information state, so a feed-forward policy forgets
nothing: its role and what that role reveals; the public table now; what it holds, drew,
passed, peeked and voted itself; **every election of the game** (at most 30), most recent first,
with the cards it saw in each; and per player the track record a player keeps in mind. It never
sees others' roles beyond what its role and investigations reveal, others' cards, the deck order
or another seat's ballot before the vote is complete. Unused seats (fewer than 10 players) are zero.

- *History rows* (`hist_*`, row i = the (i+1)-th most recent election): president, nominee,
  every ballot, elected or not, the policy enacted (by the government or by chaos), veto, both
  claims, the power used with its target and claim; and privately `hist_drawn` (the 3 policies it
  drew as that election's president) and `hist_received` (the 2 passed, if it sat in that
  government). Its discards follow: drawn - received as president, received - enacted (both on an
  accepted veto) as chancellor.
- *Private results kept all game*: `investigation` (parties it saw), `peek_seen` (the 3 policies of
  its peek, next first; `peek` shows those still on top of the deck).
- *Track records* (per player, counted over the whole game): `sessions` held as president /
  chancellor; `enacted_by` its governments (as president / chancellor, liberal / fascist);
  `ja_for` its ja votes for governments that then enacted a liberal / fascist policy;
  `claim_conflicts` its sessions whose two claims cannot both be true (the chancellor's 2 cards
  hold the president's fascists or one fewer); `false_claims` its claims the enacted policy
  refutes (0 fascists claimed and a fascist enacted, all fascist claimed and a liberal enacted);
  `lies_seen` its claims this seat knows are false from what it saw itself (the cards of its own
  sessions, its peek, its own party or the roles it knows, public chaos cards of a peek);
  `liberal_discards_seen` liberal policies it threw away as chancellor, seen by this seat as the
  president who passed them; `claimed_party` what the president who investigated it claimed.

| block | offset | shape | range | meaning |
|---|---|---|---|---|
| `seat` | 0 | (10,) | 0..1 | one-hot: this seat |
| `in_game` | 10 | (10,) | 0..1 | seats taking part (num_players) |
| `role` | 20 | (3,) | 0..1 | own role: liberal, fascist, Hitler |
| `party` | 23 | (2,) | 0..1 | own party membership: liberal, fascist (Hitler is fascist) |
| `known_roles` | 25 | (10, 3) | 0..1 | roles this seat knows (own; fascists and an informed Hitler: all) |
| `investigation` | 55 | (10, 2) | 0..1 | party memberships this seat saw by investigating |
| `liberal_track` | 75 | (6,) | 0..1 | one-hot: liberal policies enacted 0..5 |
| `fascist_track` | 81 | (7,) | 0..1 | one-hot: fascist policies enacted 0..6 |
| `tracker` | 88 | (3,) | 0..1 | one-hot: election tracker 0..2 |
| `deck_size` | 91 | (1,) | 0..17 | policies in the draw pile |
| `discard_size` | 92 | (1,) | 0..17 | policies in the discard pile |
| `alive` | 93 | (10,) | 0..1 | living players |
| `not_hitler` | 103 | (10,) | 0..1 | public: proven not Hitler (executed, or elected chancellor after 3 fascist) |
| `investigated` | 113 | (10,) | 0..1 | public: already investigated (cannot be again) |
| `president` | 123 | (10,) | 0..1 | one-hot: the president |
| `nominee` | 133 | (10,) | 0..1 | one-hot: the nominated chancellor |
| `chancellor` | 143 | (10,) | 0..1 | one-hot: the elected chancellor (during its session and powers) |
| `next_president` | 153 | (10,) | 0..1 | one-hot: who is president after this government |
| `term_limited` | 163 | (10,) | 0..1 | living players the president now may not nominate chancellor (term limits) |
| `veto_unlocked` | 173 | (1,) | 0..1 | 5 fascist policies are enacted: the veto power exists |
| `phase` | 174 | (13,) | 0..1 | one-hot: the phase |
| `to_act` | 187 | (10,) | 0..1 | one-hot: the seat to act |
| `my_ballot` | 197 | (2,) | 0..1 | ja, nein: this seat's own ballot in the running election (before the reveal) |
| `hand` | 199 | (2,) | 0..3 | liberal, fascist policies this seat holds now |
| `drawn` | 201 | (2,) | 0..3 | liberal, fascist among the 3 policies this seat drew as president in the last session |
| `passed` | 203 | (2,) | 0..2 | liberal, fascist passed to the chancellor in the last session (its president and chancellor) |
| `peek` | 205 | (3, 2) | 0..1 | policies this seat peeked that are still on top of the deck, next first |
| `peek_seen` | 211 | (3, 2) | 0..1 | the 3 policies this seat saw with its policy peek, next first (kept all game) |
| `hist_valid` | 217 | (30,) | 0..1 | history row i is the (i+1)-th most recent election |
| `hist_president` | 247 | (30, 10) | 0..1 | its president |
| `hist_nominee` | 547 | (30, 10) | 0..1 | its nominee |
| `hist_ja` | 847 | (30, 10) | 0..1 | who voted ja (once every living player has voted) |
| `hist_nein` | 1147 | (30, 10) | 0..1 | who voted nein |
| `hist_elected` | 1447 | (30,) | 0..1 | the government was elected |
| `hist_policy` | 1477 | (30, 2) | 0..1 | policy enacted then: liberal, fascist |
| `hist_chaos` | 1537 | (30,) | 0..1 | that policy was the top card (third failed election in a row) |
| `hist_veto` | 1567 | (30, 2) | 0..1 | veto: accepted, refused |
| `hist_president_claim` | 1627 | (30, 5) | 0..1 | president's claim: 0..3 fascists drawn, no claim |
| `hist_chancellor_claim` | 1777 | (30, 4) | 0..1 | chancellor's claim: 0..2 fascists received, no claim |
| `hist_power` | 1897 | (30, 4) | 0..1 | power used: investigate, special election, peek, execution |
| `hist_target` | 2017 | (30, 10) | 0..1 | its target |
| `hist_investigation_claim` | 2317 | (30, 3) | 0..1 | president's claim of the investigation: liberal, fascist, no claim |
| `hist_peek_claim` | 2407 | (30, 5) | 0..1 | president's claim of the peek: 0..3 fascists, no claim |
| `hist_drawn` | 2557 | (30, 2) | 0..3 | liberal, fascist among the 3 policies this seat drew as its president |
| `hist_received` | 2617 | (30, 2) | 0..2 | liberal, fascist passed to its chancellor, if this seat was in that government |
| `sessions` | 2677 | (10, 2) | 0..30 | legislative sessions held as president, as chancellor |
| `enacted_by` | 2697 | (10, 2, 2) | 0..6 | [as president, as chancellor][liberal, fascist]: policies enacted by its governments |
| `ja_for` | 2737 | (10, 2) | 0..10 | its ja votes for governments that then enacted a liberal, a fascist policy |
| `claim_conflicts` | 2757 | (10,) | 0..30 | its sessions whose president and chancellor claims cannot both be true |
| `false_claims` | 2767 | (10,) | 0..30 | its claims the enacted policy proves false (0 fascists and a fascist enacted...) |
| `lies_seen` | 2777 | (10,) | 0..30 | its claims this seat knows are false: from its own cards, its peek, roles it knows |
| `liberal_discards_seen` | 2787 | (10,) | 0..30 | liberal policies it discarded as chancellor, seen by this seat as the president who passed them |
| `claimed_party` | 2797 | (10, 2) | 0..1 | the president who investigated it claimed it liberal, fascist |

Read it by name with ``env.observation_layout.views(obs["observation"])``.

## Rewards

At the end, +1 to every member of the winning team (dead or alive), -1 to every loser; 0 on
every other step. ``info`` is empty.

## Options

| option | default | values |
|---|---|---|
| ``num_players`` | 7 | 5..10 |
| ``claims`` | True | True: the claim phases are played; False: no claims |
| ``hitler_knows_fascists`` | False | False (the rulebook: Hitler knows nobody), "auto" (official rules: the fascist at 5-6 players, nobody at 7-10), True |
| ``term_limits`` | "rulebook" | "rulebook": the president and chancellor that enacted the last policy may not be nominated chancellor (a vetoed government enacted nothing; lifted when they would leave the president nobody to nominate); "official": the last elected government, with 5 or fewer living players only its chancellor. Chaos clears them in both |
| ``reshuffle`` | "at_draw" | "at_draw": the discards are shuffled in when the president draws from fewer than 3 (chaos: from an empty deck; a peek: from fewer than 3, first); "after_session" (official rules): after every session or chaos enactment that leaves fewer than 3 |
| ``max_cycles`` | 10000 | truncate after that many decisions (None: never); a game takes at most ~600 |
| ``illegal_action`` | "raise" | "raise", "penalize" |
| ``render_mode`` | None | "human", "ansi", "rgb_array" |
"""

from envs.core import Game, Option
from envs.core.aec import TabletopAECEnv, make_env_functions

from . import engine, render

_POLICY = ("liberal", "fascist")


def action_name(action, config=None):
    """The readable name of ``action`` (the same in every phase)."""
    if not 0 <= action < engine.NUM_ACTIONS:
        return f"invalid action {action}"
    if action < engine.VOTE_JA:
        return f"nominate player_{action - engine.NOMINATE} as chancellor"
    if action in (engine.VOTE_JA, engine.VOTE_NEIN):
        return "vote ja" if action == engine.VOTE_JA else "vote nein"
    if action < engine.CHANCELLOR_DISCARD:
        return f"president discards a {_POLICY[action - engine.PRESIDENT_DISCARD]} policy"
    if action < engine.PROPOSE_VETO:
        return f"chancellor discards a {_POLICY[action - engine.CHANCELLOR_DISCARD]} policy"
    if action == engine.PROPOSE_VETO:
        return "propose a veto"
    if action == engine.CONSENT_VETO:
        return "consent to the veto"
    if action == engine.REFUSE_VETO:
        return "refuse the veto"
    if action < engine.CLAIM_FASCISTS:
        return f"choose player_{action - engine.TARGET} (investigate / special election / execute)"
    if action < engine.CLAIM_PARTY:
        return f"claim {action - engine.CLAIM_FASCISTS} fascist policies seen"
    if action < engine.NO_CLAIM:
        return f"claim the investigated player is {_POLICY[action - engine.CLAIM_PARTY]}"
    return "no claim"


def role_of(record, seat):
    """The seat's team, for win rates per role: "liberal" or "fascist" (Hitler plays for the fascists)."""
    return "liberal" if int(record["role"][seat]) == engine.LIBERAL else "fascist"


def fair_share(num_players):
    """A seat's win rate when both teams win alike: one of the two teams wins every game."""
    return 0.5


GAME = Game(
    env_id="secret_hitler_v0",
    engine=engine,
    player_counts=(5, 6, 7, 8, 9, 10),
    default_players=7,
    layout=engine.LAYOUT,
    num_actions=engine.NUM_ACTIONS,
    action_name=action_name,
    render=render,
    options={
        "claims": Option(True, "play the structured claim phases (True) or not (False)", choices=(True, False)),
        "hitler_knows_fascists": Option(
            False, "whether Hitler knows the fascists: False (the rulebook), 'auto' (official rules: 5-6 players "
            "yes, 7-10 no), True", choices=(False, "auto", True)),
        "term_limits": Option(
            "rulebook", "who may not be nominated chancellor: 'rulebook' (the government that enacted the last "
            "policy) or 'official' (the last elected one; with 5 or fewer living only its chancellor)",
            choices=engine.TERM_LIMIT_RULES),
        "reshuffle": Option(
            "at_draw", "when the discards are shuffled into the deck: 'at_draw' (the rulebook: when the president "
            "draws from fewer than 3) or 'after_session' (official rules: when a session or chaos leaves fewer than 3)",
            choices=engine.RESHUFFLE_RULES),
    },
    default_max_cycles=10_000,
    role_of=role_of,
    fair_share=fair_share,
    description="Secret Hitler (the rulebook, official rules as options, 5-10 players) with structured claims",
)


class raw_env(TabletopAECEnv):
    __doc__ = __doc__
    game = GAME


env, raw_env, parallel_env = make_env_functions(raw_env)
