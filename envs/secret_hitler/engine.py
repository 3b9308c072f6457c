"""Secret Hitler rules (Max Temkin et al., official rules for 5-10 players) over one numba record.

Everything here is rules; the PettingZoo adapter, options and documentation live in ``env.py``.
Decisions where the rulebook is silent are listed in ``docs/rules/secret_hitler.md``.

The game runs as a sequence of phases, each with one seat to act:

    NOMINATION -> ELECTION (every living seat votes, one after another, ballots hidden until the
    last) -> PRESIDENT_LEGISLATES -> CHANCELLOR_LEGISLATES [-> VETO] -> PRESIDENT_CLAIM ->
    CHANCELLOR_CLAIM -> a presidential power (INVESTIGATION [-> INVESTIGATION_CLAIM],
    PEEK_CLAIM, SPECIAL_ELECTION, EXECUTION) -> NOMINATION of the next president ...

Card bookkeeping. Every election is an entry of the history arrays ``h_*`` (a game has at most
30 elections: the tracker forces a policy every third failure, and at most 10 policies are
enacted). An entry whose government drew cards holds that session's discards. Between two
reshuffles (an *epoch*) the discard pile is exactly the discards of that epoch's sessions, and
each epoch starts from a public composition (every card not enacted is in the new deck); this is
what lets :func:`determinize` resample cards exactly.
"""

import numpy as np
from numba import njit

from envs.core import Layout, config_dtype, register_engine, state_dtype
from envs.core.rng import randint, seed_rng, shuffle

MAX_PLAYERS = 10
NUM_LIBERAL_POLICIES = 6
NUM_FASCIST_POLICIES = 11
DECK_CARDS = NUM_LIBERAL_POLICIES + NUM_FASCIST_POLICIES
LIBERAL_WIN = 5  # liberal policies that win
FASCIST_WIN = 6  # fascist policies that win
HITLER_ZONE = 3  # fascist policies after which electing Hitler chancellor wins
VETO_UNLOCK = 5  # fascist policies after which the veto power exists
CHAOS = 3  # failed elections in a row that enact the top policy
HISTORY_CAP = 32  # every election of a game fits (at most 30)
MAX_EPOCHS = 20  # deck reshuffles + 1 (at most 16: each epoch holds >= 2 sessions)
HISTORY = 10  # elections shown in the observation, most recent first

# Roles and parties; a policy is LIBERAL or FASCIST too.
LIBERAL, FASCIST, HITLER = 0, 1, 2

# Phases.
NOMINATION = 0
ELECTION = 1
PRESIDENT_LEGISLATES = 2
CHANCELLOR_LEGISLATES = 3
VETO = 4
PRESIDENT_CLAIM = 5
CHANCELLOR_CLAIM = 6
INVESTIGATION = 7
INVESTIGATION_CLAIM = 8
PEEK_CLAIM = 9
SPECIAL_ELECTION = 10
EXECUTION = 11
GAME_OVER = 12
NUM_PHASES = 13
PHASE_NAMES = ("nomination", "election", "president legislates", "chancellor legislates", "veto",
               "president claim", "chancellor claim", "investigation", "investigation claim",
               "peek claim", "special election", "execution", "game over")

# Presidential powers.
NO_POWER, INVESTIGATE, SPECIAL, PEEK, EXECUTE = -1, 0, 1, 2, 3
POWER_NAMES = ("investigate loyalty", "call special election", "policy peek", "execution")
#: POWERS[band, k - 1]: the power of the k-th fascist policy; bands 5-6, 7-8, 9-10 players.
POWERS = np.array([
    [NO_POWER, NO_POWER, PEEK, EXECUTE, EXECUTE],
    [NO_POWER, INVESTIGATE, SPECIAL, EXECUTE, EXECUTE],
    [INVESTIGATE, INVESTIGATE, SPECIAL, EXECUTE, EXECUTE],
], np.int8)

# How a game ended (``win_reason``).
NOT_OVER, LIBERAL_POLICIES, HITLER_EXECUTED, FASCIST_POLICIES, HITLER_ELECTED = 0, 1, 2, 3, 4

# ---- actions: one flat space --------------------------------------------------------------
NOMINATE = 0  # + seat
VOTE_JA = 10
VOTE_NEIN = 11
PRESIDENT_DISCARD = 12  # + policy
CHANCELLOR_DISCARD = 14  # + policy
PROPOSE_VETO = 16
CONSENT_VETO = 17
REFUSE_VETO = 18
TARGET = 19  # + seat: investigate / special election / execute, by phase
CLAIM_FASCISTS = 29  # + k: "k of the cards I saw were fascist" (legislative session or peek)
CLAIM_PARTY = 33  # + party: "the player I investigated is liberal / fascist"
NO_CLAIM = 35
NUM_ACTIONS = 36

# Ballots and claims as stored in the record.
NO_BALLOT, JA, NEIN = 0, 1, 2
UNSET = -1

# ---- the record -----------------------------------------------------------------------------
H = HISTORY_CAP
STATE = state_dtype([
    ("phase", np.int8),
    ("claims", np.int8),  # 1: the claim phases are played
    ("hitler_knows", np.int8),  # 1: Hitler knows the fascists
    ("role", np.int8, (MAX_PLAYERS,)),
    ("alive", np.int8, (MAX_PLAYERS,)),
    ("living", np.int8),
    ("cleared", np.int8, (MAX_PLAYERS,)),  # public: proven not Hitler (executed, or elected late)
    ("investigator", np.int8, (MAX_PLAYERS,)),  # who investigated each seat, -1 nobody
    ("liberal_enacted", np.int8),
    ("fascist_enacted", np.int8),
    ("tracker", np.int8),
    ("deck", np.int8, (DECK_CARDS,)),  # draw pile; the top card is deck[deck_size - 1]
    ("deck_size", np.int8),
    ("discard_lib", np.int8),
    ("discard_fas", np.int8),
    ("hand_lib", np.int8),  # the cards of the president (3) or chancellor (2) in a session
    ("hand_fas", np.int8),
    ("president", np.int8),
    ("nominee", np.int8),
    ("chancellor", np.int8),  # elected, while its session and powers run; -1 otherwise
    ("last_president", np.int8),  # the last elected government (term limits); -1 none
    ("last_chancellor", np.int8),
    ("rotation", np.int8),  # the regular presidency passes left from this seat
    ("special_next", np.int8),  # seat chosen by a special election, -1 none
    ("ballot", np.int8, (MAX_PLAYERS,)),  # votes of the running election, hidden until all are in
    ("veto_refused", np.int8),
    ("pending_power", np.int8),
    ("peeker", np.int8),  # who peeked in this epoch, -1 nobody
    ("peek_base", np.int8),  # deck position of the third peeked card
    ("winner", np.int8),  # -1, LIBERAL or FASCIST
    ("win_reason", np.int8),
    ("elections", np.int8),  # entries used in the h_* arrays
    ("last_session", np.int8),  # the latest election whose government drew cards, -1
    ("epoch", np.int8),
    ("epoch_lib", np.int8, (MAX_EPOCHS,)),  # deck composition when the epoch started
    ("epoch_fas", np.int8, (MAX_EPOCHS,)),
    ("epoch_chaos_lib", np.int8, (MAX_EPOCHS,)),  # policies the chaos rule took from its deck
    ("epoch_chaos_fas", np.int8, (MAX_EPOCHS,)),
    ("epoch_remainder", np.int8, (MAX_EPOCHS,)),  # deck size when it was reshuffled
    # One entry per election.
    ("h_president", np.int8, (H,)),
    ("h_nominee", np.int8, (H,)),
    ("h_ballot", np.int8, (H, MAX_PLAYERS)),  # revealed votes
    ("h_elected", np.int8, (H,)),
    ("h_policy", np.int8, (H,)),  # policy enacted during this entry (by its government or chaos)
    ("h_chaos", np.int8, (H,)),  # 1: the policy came from the top of the deck (3rd failure)
    ("h_veto", np.int8, (H,)),  # 0 none, 1 vetoed, 2 veto refused
    ("h_pres_claim", np.int8, (H,)),  # -1, 0..3 fascists, 4 no claim
    ("h_chanc_claim", np.int8, (H,)),  # -1, 0..2 fascists, 3 no claim
    ("h_power", np.int8, (H,)),
    ("h_target", np.int8, (H,)),
    ("h_power_claim", np.int8, (H,)),  # investigation: party or 2 no claim; peek: 0..3 or 4 no claim
    ("h_session", np.int8, (H,)),  # 1: this government drew cards
    ("h_epoch", np.int8, (H,)),
    ("h_drawn_lib", np.int8, (H,)),  # liberals among the president's 3 cards
    ("h_passed_lib", np.int8, (H,)),  # liberals among the 2 passed to the chancellor, -1 not yet
    ("h_pres_discard", np.int8, (H,)),
    ("h_chanc_discard", np.int8, (H, 2)),  # the second only on a veto
], MAX_PLAYERS)

CONFIG = config_dtype([("claims", np.int8), ("hitler_knows", np.int8)])  # hitler_knows -1: auto

# ---- the observation ------------------------------------------------------------------------
P, R = MAX_PLAYERS, HISTORY
LAYOUT = Layout(
    ("seat", P, 0, 1, "one-hot: this seat"),
    ("in_game", P, 0, 1, "seats taking part (num_players)"),
    ("role", 3, 0, 1, "own role: liberal, fascist, Hitler"),
    ("party", 2, 0, 1, "own party membership: liberal, fascist (Hitler is fascist)"),
    ("known_roles", (P, 3), 0, 1, "roles this seat knows (own; fascists and an informed Hitler: all)"),
    ("investigation", (P, 2), 0, 1, "party memberships this seat saw by investigating"),
    ("liberal_track", 6, 0, 1, "one-hot: liberal policies enacted 0..5"),
    ("fascist_track", 7, 0, 1, "one-hot: fascist policies enacted 0..6"),
    ("tracker", 3, 0, 1, "one-hot: election tracker 0..2"),
    ("deck_size", 1, 0, DECK_CARDS, "policies in the draw pile"),
    ("discard_size", 1, 0, DECK_CARDS, "policies in the discard pile"),
    ("alive", P, 0, 1, "living players"),
    ("not_hitler", P, 0, 1, "public: proven not Hitler (executed, or elected chancellor after 3 fascist)"),
    ("investigated", P, 0, 1, "public: already investigated (cannot be again)"),
    ("president", P, 0, 1, "one-hot: the president"),
    ("nominee", P, 0, 1, "one-hot: the nominated chancellor"),
    ("chancellor", P, 0, 1, "one-hot: the elected chancellor (during its session and powers)"),
    ("next_president", P, 0, 1, "one-hot: who is president after this government"),
    ("term_limited", P, 0, 1, "living players who may not be nominated chancellor now"),
    ("veto_unlocked", 1, 0, 1, "5 fascist policies are enacted: the veto power exists"),
    ("phase", NUM_PHASES, 0, 1, "one-hot: the phase"),
    ("to_act", P, 0, 1, "one-hot: the seat to act"),
    ("hand", 2, 0, 3, "liberal, fascist policies this seat holds now"),
    ("drawn", 2, 0, 3, "liberal, fascist among the 3 policies this seat drew as president in the last session"),
    ("passed", 2, 0, 2, "liberal, fascist passed to the chancellor in the last session (its president and chancellor)"),
    ("peek", (3, 2), 0, 1, "policies this seat peeked that are still on top of the deck, next first"),
    ("hist_valid", R, 0, 1, "history row i is the (i+1)-th most recent election"),
    ("hist_president", (R, P), 0, 1, "its president"),
    ("hist_nominee", (R, P), 0, 1, "its nominee"),
    ("hist_ja", (R, P), 0, 1, "who voted ja (once every living player has voted)"),
    ("hist_nein", (R, P), 0, 1, "who voted nein"),
    ("hist_elected", R, 0, 1, "the government was elected"),
    ("hist_policy", (R, 2), 0, 1, "policy enacted then: liberal, fascist"),
    ("hist_chaos", R, 0, 1, "that policy was the top card (third failed election in a row)"),
    ("hist_veto", (R, 2), 0, 1, "veto: accepted, refused"),
    ("hist_president_claim", (R, 5), 0, 1, "president's claim: 0..3 fascists drawn, no claim"),
    ("hist_chancellor_claim", (R, 4), 0, 1, "chancellor's claim: 0..2 fascists received, no claim"),
    ("hist_power", (R, 4), 0, 1, "power used: investigate, special election, peek, execution"),
    ("hist_target", (R, P), 0, 1, "its target"),
    ("hist_investigation_claim", (R, 3), 0, 1, "president's claim of the investigation: liberal, fascist, no claim"),
    ("hist_peek_claim", (R, 5), 0, 1, "president's claim of the peek: 0..3 fascists, no claim"),
)
_O = {name: LAYOUT.offset(name) for name in LAYOUT.names}
O_SEAT, O_IN_GAME, O_ROLE, O_PARTY = _O["seat"], _O["in_game"], _O["role"], _O["party"]
O_KNOWN, O_INVESTIGATION = _O["known_roles"], _O["investigation"]
O_LIB_TRACK, O_FAS_TRACK, O_TRACKER = _O["liberal_track"], _O["fascist_track"], _O["tracker"]
O_DECK, O_DISCARD, O_ALIVE, O_NOT_HITLER = _O["deck_size"], _O["discard_size"], _O["alive"], _O["not_hitler"]
O_INVESTIGATED, O_PRESIDENT, O_NOMINEE, O_CHANCELLOR = (
    _O["investigated"], _O["president"], _O["nominee"], _O["chancellor"])
O_NEXT, O_TERM, O_VETO_UNLOCKED, O_PHASE, O_TO_ACT = (
    _O["next_president"], _O["term_limited"], _O["veto_unlocked"], _O["phase"], _O["to_act"])
O_HAND, O_DRAWN, O_PASSED, O_PEEK = _O["hand"], _O["drawn"], _O["passed"], _O["peek"]
OH_VALID, OH_PRESIDENT, OH_NOMINEE, OH_JA, OH_NEIN = (
    _O["hist_valid"], _O["hist_president"], _O["hist_nominee"], _O["hist_ja"], _O["hist_nein"])
OH_ELECTED, OH_POLICY, OH_CHAOS, OH_VETO = (
    _O["hist_elected"], _O["hist_policy"], _O["hist_chaos"], _O["hist_veto"])
OH_PRES_CLAIM, OH_CHANC_CLAIM, OH_POWER, OH_TARGET = (
    _O["hist_president_claim"], _O["hist_chancellor_claim"], _O["hist_power"], _O["hist_target"])
OH_INV_CLAIM, OH_PEEK_CLAIM = _O["hist_investigation_claim"], _O["hist_peek_claim"]


def make_config(config):
    """The CONFIG record for a validated option dict."""
    record = np.zeros(1, CONFIG)
    record["num_players"] = config["num_players"]
    record["claims"] = 1 if config["claims"] else 0
    knows = config["hitler_knows_fascists"]
    record["hitler_knows"] = -1 if knows == "auto" else int(bool(knows))
    return record


# ---- small rule helpers ------------------------------------------------------------------------


@njit(cache=True)
def fascists_without_hitler(num_players):
    """Ordinary fascists: 1 at 5-6 players, 2 at 7-8, 3 at 9-10."""
    return (num_players - 3) // 2


@njit(cache=True)
def power_band(num_players):
    if num_players <= 6:
        return 0
    if num_players <= 8:
        return 1
    return 2


@njit(cache=True)
def party_of(role):
    return LIBERAL if role == LIBERAL else FASCIST


@njit(cache=True)
def next_living(state, seat):
    """The first living seat to the left of ``seat`` (seat numbers increase to the left)."""
    n = state.num_players
    p = (seat + 1) % n
    while state.alive[p] == 0:
        p = (p + 1) % n
    return p


@njit(cache=True)
def next_president(state):
    """Who becomes president when the current government ends."""
    if state.special_next >= 0:
        return state.special_next
    return next_living(state, state.rotation)


@njit(cache=True)
def term_limited(state, seat):
    """Whether ``seat`` is barred from the chancellorship by the last elected government."""
    if seat == state.last_chancellor:
        return True
    return seat == state.last_president and state.living > 5


@njit(cache=True)
def knows_all_roles(state, seat):
    role = state.role[seat]
    return role == FASCIST or (role == HITLER and state.hitler_knows == 1)


@njit(cache=True)
def holds_hand(state, seat):
    """Whether ``seat`` holds the session's policies now."""
    if state.phase == PRESIDENT_LEGISLATES:
        return seat == state.president
    if state.phase == CHANCELLOR_LEGISLATES or state.phase == VETO:
        return seat == state.chancellor
    return False


@njit(cache=True)
def knows_hand(state, seat):
    """Whether ``seat`` knows the held policies: their holder, or the president who passed them."""
    if state.phase == CHANCELLOR_LEGISLATES or state.phase == VETO:
        return seat == state.chancellor or seat == state.president
    return holds_hand(state, seat)


# ---- reset --------------------------------------------------------------------------------------


@njit(cache=True)
def reset(state, config, seed):
    n = state.num_players
    state.claims = config.claims
    state.hitler_knows = config.hitler_knows if config.hitler_knows >= 0 else (1 if n <= 6 else 0)
    # Roles: one Hitler, the ordinary fascists, liberals; dealt at random.
    fascists = fascists_without_hitler(n)
    for seat in range(n):
        state.role[seat] = HITLER if seat == 0 else (FASCIST if seat <= fascists else LIBERAL)
        state.alive[seat] = 1
        state.investigator[seat] = -1
    shuffle(state, state.role, n)
    state.living = n
    for i in range(DECK_CARDS):
        state.deck[i] = LIBERAL if i < NUM_LIBERAL_POLICIES else FASCIST
    shuffle(state, state.deck, DECK_CARDS)
    state.deck_size = DECK_CARDS
    state.epoch_lib[0] = NUM_LIBERAL_POLICIES
    state.epoch_fas[0] = NUM_FASCIST_POLICIES
    state.nominee = -1
    state.chancellor = -1
    state.last_president = -1
    state.last_chancellor = -1
    state.special_next = -1
    state.pending_power = NO_POWER
    state.peeker = -1
    state.winner = -1
    state.last_session = -1
    # The first president is random (the Mah Jong card); the rotation passes left from there.
    state.rotation = randint(state, int(n))
    state.president = state.rotation
    state.phase = NOMINATION
    state.current_player = state.president


# ---- legal actions --------------------------------------------------------------------------


@njit(cache=True)
def legal_mask(state, seat, mask):
    if state.terminal != 0 or seat != state.current_player:
        return
    phase = state.phase
    n = state.num_players
    if phase == NOMINATION:
        for p in range(n):
            if p != seat and state.alive[p] != 0 and not term_limited(state, p):
                mask[NOMINATE + p] = 1
    elif phase == ELECTION:
        mask[VOTE_JA] = 1
        mask[VOTE_NEIN] = 1
    elif phase == PRESIDENT_LEGISLATES or phase == CHANCELLOR_LEGISLATES:
        base = PRESIDENT_DISCARD if phase == PRESIDENT_LEGISLATES else CHANCELLOR_DISCARD
        if state.hand_lib > 0:
            mask[base + LIBERAL] = 1
        if state.hand_fas > 0:
            mask[base + FASCIST] = 1
        if phase == CHANCELLOR_LEGISLATES and state.fascist_enacted >= VETO_UNLOCK and state.veto_refused == 0:
            mask[PROPOSE_VETO] = 1
    elif phase == VETO:
        mask[CONSENT_VETO] = 1
        mask[REFUSE_VETO] = 1
    elif phase == PRESIDENT_CLAIM or phase == PEEK_CLAIM:
        for k in range(4):
            mask[CLAIM_FASCISTS + k] = 1
        mask[NO_CLAIM] = 1
    elif phase == CHANCELLOR_CLAIM:
        for k in range(3):
            mask[CLAIM_FASCISTS + k] = 1
        mask[NO_CLAIM] = 1
    elif phase == INVESTIGATION_CLAIM:
        mask[CLAIM_PARTY + LIBERAL] = 1
        mask[CLAIM_PARTY + FASCIST] = 1
        mask[NO_CLAIM] = 1
    elif phase == INVESTIGATION or phase == SPECIAL_ELECTION or phase == EXECUTION:
        for p in range(n):
            if p != seat and state.alive[p] != 0 and (phase != INVESTIGATION or state.investigator[p] < 0):
                mask[TARGET + p] = 1


# ---- the flow of the game ---------------------------------------------------------------------


@njit(cache=True)
def _end(state, team, reason):
    state.winner = team
    state.win_reason = reason
    state.terminal = 1
    state.phase = GAME_OVER
    state.current_player = -1
    for seat in range(state.num_players):
        state.reward[seat] = 1.0 if party_of(state.role[seat]) == team else -1.0


@njit(cache=True)
def _start_government(state):
    """The next president (special election or rotation) nominates."""
    if state.special_next >= 0:
        state.president = state.special_next  # the rotation stays with the caller
        state.special_next = -1
    else:
        state.rotation = next_living(state, state.rotation)
        state.president = state.rotation
    state.nominee = -1
    state.chancellor = -1
    state.veto_refused = 0
    state.phase = NOMINATION
    state.current_player = state.president


@njit(cache=True)
def _reshuffle_if_short(state):
    """Fewer than 3 policies left: shuffle the discards into the deck; a new epoch begins."""
    if state.deck_size >= 3:
        return
    state.epoch_remainder[state.epoch] = state.deck_size
    size = state.deck_size
    for _ in range(state.discard_lib):
        state.deck[size] = LIBERAL
        size += 1
    for _ in range(state.discard_fas):
        state.deck[size] = FASCIST
        size += 1
    state.deck_size = size
    state.discard_lib = 0
    state.discard_fas = 0
    shuffle(state, state.deck, size)
    state.epoch += 1
    state.epoch_lib[state.epoch] = NUM_LIBERAL_POLICIES - state.liberal_enacted
    state.epoch_fas[state.epoch] = NUM_FASCIST_POLICIES - state.fascist_enacted
    state.peeker = -1  # what was peeked is shuffled away


@njit(cache=True)
def _enact(state, policy):
    """Place ``policy`` on its track; True if that won the game."""
    state.tracker = 0
    if policy == LIBERAL:
        state.liberal_enacted += 1
        if state.liberal_enacted == LIBERAL_WIN:
            _end(state, LIBERAL, LIBERAL_POLICIES)
            return True
    else:
        state.fascist_enacted += 1
        if state.fascist_enacted == FASCIST_WIN:
            _end(state, FASCIST, FASCIST_POLICIES)
            return True
    return False


@njit(cache=True)
def _advance_tracker(state):
    """A failed election or a veto; the third in a row enacts the top policy. True if game over."""
    state.tracker += 1
    if state.tracker < CHAOS:
        return False
    entry = state.elections - 1
    state.deck_size -= 1
    policy = state.deck[state.deck_size]
    if policy == LIBERAL:
        state.epoch_chaos_lib[state.epoch] += 1
    else:
        state.epoch_chaos_fas[state.epoch] += 1
    state.h_policy[entry] = policy
    state.h_chaos[entry] = 1
    state.last_president = -1  # term limits are forgotten
    state.last_chancellor = -1
    if _enact(state, policy):  # its power, if any, is ignored
        return True
    _reshuffle_if_short(state)
    return False


@njit(cache=True)
def _nominate(state, nominee):
    e = state.elections
    state.elections += 1
    state.h_president[e] = state.president
    state.h_nominee[e] = nominee
    state.h_policy[e] = UNSET
    state.h_pres_claim[e] = UNSET
    state.h_chanc_claim[e] = UNSET
    state.h_power[e] = NO_POWER
    state.h_target[e] = UNSET
    state.h_power_claim[e] = UNSET
    state.h_epoch[e] = UNSET
    state.h_drawn_lib[e] = UNSET
    state.h_passed_lib[e] = UNSET
    state.h_pres_discard[e] = UNSET
    state.h_chanc_discard[e, 0] = UNSET
    state.h_chanc_discard[e, 1] = UNSET
    state.nominee = nominee
    state.phase = ELECTION
    state.current_player = state.president  # voting starts with the president and goes left


@njit(cache=True)
def _vote(state, ballot):
    state.ballot[state.current_player] = ballot
    voter = next_living(state, state.current_player)
    if voter != state.president:
        state.current_player = voter
        return
    # Every living player has voted: the ballots are revealed together.
    e = state.elections - 1
    ja = 0
    for p in range(state.num_players):
        state.h_ballot[e, p] = state.ballot[p]
        if state.ballot[p] == JA:
            ja += 1
        state.ballot[p] = NO_BALLOT
    if 2 * ja > state.living:
        _elect(state, e)
    elif not _advance_tracker(state):
        _start_government(state)


@njit(cache=True)
def _elect(state, e):
    state.h_elected[e] = 1
    chancellor = state.nominee
    state.chancellor = chancellor
    state.last_president = state.president
    state.last_chancellor = chancellor
    if state.fascist_enacted >= HITLER_ZONE:
        if state.role[chancellor] == HITLER:
            _end(state, FASCIST, HITLER_ELECTED)
            return
        state.cleared[chancellor] = 1  # everybody now knows this player is not Hitler
    # The legislative session: the president draws the top three.
    lib = 0
    for _ in range(3):
        state.deck_size -= 1
        lib += state.deck[state.deck_size] == LIBERAL
    state.hand_lib = lib
    state.hand_fas = 3 - lib
    state.h_session[e] = 1
    state.h_epoch[e] = state.epoch
    state.h_drawn_lib[e] = lib
    state.last_session = e
    state.phase = PRESIDENT_LEGISLATES
    state.current_player = state.president


@njit(cache=True)
def _take_from_hand(state, policy):
    if policy == LIBERAL:
        state.hand_lib -= 1
        state.discard_lib += 1
    else:
        state.hand_fas -= 1
        state.discard_fas += 1


@njit(cache=True)
def _president_discards(state, policy):
    e = state.elections - 1
    _take_from_hand(state, policy)
    state.h_pres_discard[e] = policy
    state.h_passed_lib[e] = state.hand_lib
    state.phase = CHANCELLOR_LEGISLATES
    state.current_player = state.chancellor


@njit(cache=True)
def _chancellor_discards(state, policy):
    e = state.elections - 1
    _take_from_hand(state, policy)
    state.h_chanc_discard[e, 0] = policy
    enacted = LIBERAL if state.hand_lib > 0 else FASCIST
    state.hand_lib = 0
    state.hand_fas = 0
    state.h_policy[e] = enacted
    if _enact(state, enacted):
        return
    _reshuffle_if_short(state)
    power = NO_POWER
    if enacted == FASCIST:
        power = POWERS[power_band(state.num_players), state.fascist_enacted - 1]
    _after_session(state, power)


@njit(cache=True)
def _veto_answer(state, consent):
    e = state.elections - 1
    if not consent:
        state.h_veto[e] = 2
        state.veto_refused = 1
        state.phase = CHANCELLOR_LEGISLATES  # the chancellor must enact one of the two
        state.current_player = state.chancellor
        return
    state.h_veto[e] = 1
    state.h_chanc_discard[e, 0] = LIBERAL if state.hand_lib > 0 else FASCIST
    state.h_chanc_discard[e, 1] = FASCIST if state.hand_fas > 0 else LIBERAL
    state.discard_lib += state.hand_lib
    state.discard_fas += state.hand_fas
    state.hand_lib = 0
    state.hand_fas = 0
    _reshuffle_if_short(state)  # the session is over; chaos may then need the top card
    if _advance_tracker(state):
        return
    _after_session(state, NO_POWER)


@njit(cache=True)
def _after_session(state, power):
    state.pending_power = power
    if state.claims != 0:
        state.phase = PRESIDENT_CLAIM
        state.current_player = state.president
    else:
        _begin_power(state)


@njit(cache=True)
def _begin_power(state):
    power = state.pending_power
    state.pending_power = NO_POWER
    if power == NO_POWER:
        _start_government(state)
        return
    e = state.elections - 1
    state.h_power[e] = power
    state.current_player = state.president
    if power == PEEK:
        state.peeker = state.president
        state.peek_base = state.deck_size - 3
        if state.claims != 0:
            state.phase = PEEK_CLAIM
        else:
            _start_government(state)
    elif power == INVESTIGATE:
        state.phase = INVESTIGATION
    elif power == SPECIAL:
        state.phase = SPECIAL_ELECTION
    else:
        state.phase = EXECUTION


@njit(cache=True)
def _target(state, target):
    e = state.elections - 1
    state.h_target[e] = target
    phase = state.phase
    if phase == INVESTIGATION:
        state.investigator[target] = state.president
        if state.claims != 0:
            state.phase = INVESTIGATION_CLAIM
            return
    elif phase == SPECIAL_ELECTION:
        state.special_next = target
    else:  # EXECUTION
        state.alive[target] = 0
        state.living -= 1
        if state.role[target] == HITLER:
            _end(state, LIBERAL, HITLER_EXECUTED)
            return
        state.cleared[target] = 1
    _start_government(state)


@njit(cache=True)
def _claim(state, value):
    """A claim (``value`` in the record's encoding for the phase), then the game goes on."""
    e = state.elections - 1
    phase = state.phase
    if phase == PRESIDENT_CLAIM:
        state.h_pres_claim[e] = value
        state.phase = CHANCELLOR_CLAIM
        state.current_player = state.chancellor
    elif phase == CHANCELLOR_CLAIM:
        state.h_chanc_claim[e] = value
        _begin_power(state)
    else:  # INVESTIGATION_CLAIM, PEEK_CLAIM
        state.h_power_claim[e] = value
        _start_government(state)


@njit(cache=True)
def _no_claim_code(phase):
    if phase == PRESIDENT_CLAIM or phase == PEEK_CLAIM:
        return 4
    if phase == CHANCELLOR_CLAIM:
        return 3
    return 2  # INVESTIGATION_CLAIM


@njit(cache=True)
def step(state, action):
    state.reward[:] = 0.0
    if action < VOTE_JA:
        _nominate(state, action - NOMINATE)
    elif action == VOTE_JA:
        _vote(state, JA)
    elif action == VOTE_NEIN:
        _vote(state, NEIN)
    elif action < CHANCELLOR_DISCARD:
        _president_discards(state, action - PRESIDENT_DISCARD)
    elif action < PROPOSE_VETO:
        _chancellor_discards(state, action - CHANCELLOR_DISCARD)
    elif action == PROPOSE_VETO:
        state.phase = VETO
        state.current_player = state.president
    elif action == CONSENT_VETO:
        _veto_answer(state, True)
    elif action == REFUSE_VETO:
        _veto_answer(state, False)
    elif action < CLAIM_FASCISTS:
        _target(state, action - TARGET)
    elif action < CLAIM_PARTY:
        _claim(state, action - CLAIM_FASCISTS)
    elif action < NO_CLAIM:
        _claim(state, action - CLAIM_PARTY)
    else:
        _claim(state, _no_claim_code(state.phase))


# ---- observation ------------------------------------------------------------------------------


@njit(cache=True)
def observe(state, seat, out):
    n = state.num_players
    out[O_SEAT + seat] = 1.0
    role = int(state.role[seat])
    out[O_ROLE + role] = 1.0
    out[O_PARTY + party_of(role)] = 1.0
    knows_all = knows_all_roles(state, seat)
    for p in range(n):
        out[O_IN_GAME + p] = 1.0
        if knows_all or p == seat:
            out[O_KNOWN + 3 * p + int(state.role[p])] = 1.0
        if state.investigator[p] >= 0:
            out[O_INVESTIGATED + p] = 1.0
            if state.investigator[p] == seat:
                out[O_INVESTIGATION + 2 * p + party_of(state.role[p])] = 1.0
        if state.alive[p] != 0:
            out[O_ALIVE + p] = 1.0
            if term_limited(state, p):
                out[O_TERM + p] = 1.0
        out[O_NOT_HITLER + p] = state.cleared[p]
    out[O_LIB_TRACK + int(state.liberal_enacted)] = 1.0
    out[O_FAS_TRACK + int(state.fascist_enacted)] = 1.0
    out[O_TRACKER + min(int(state.tracker), CHAOS - 1)] = 1.0
    out[O_DECK] = state.deck_size
    out[O_DISCARD] = state.discard_lib + state.discard_fas
    if state.fascist_enacted >= VETO_UNLOCK:
        out[O_VETO_UNLOCKED] = 1.0
    out[O_PHASE + int(state.phase)] = 1.0
    if state.terminal == 0:
        out[O_PRESIDENT + int(state.president)] = 1.0
        out[O_NEXT + int(next_president(state))] = 1.0
        out[O_TO_ACT + int(state.current_player)] = 1.0
        if state.nominee >= 0:
            out[O_NOMINEE + int(state.nominee)] = 1.0
        if state.chancellor >= 0:
            out[O_CHANCELLOR + int(state.chancellor)] = 1.0
    if holds_hand(state, seat):
        out[O_HAND] = state.hand_lib
        out[O_HAND + 1] = state.hand_fas
    _observe_session(state, seat, out)
    if state.peeker == seat:
        for i in range(3):
            pos = state.deck_size - 1 - i
            if pos >= state.peek_base:
                out[O_PEEK + 2 * i + int(state.deck[pos])] = 1.0
    _observe_history(state, out)


@njit(cache=True)
def _observe_session(state, seat, out):
    e = state.last_session
    if e < 0:
        return
    president = state.h_president[e]
    if seat == president:
        out[O_DRAWN] = state.h_drawn_lib[e]
        out[O_DRAWN + 1] = 3 - state.h_drawn_lib[e]
    if (seat == president or seat == state.h_nominee[e]) and state.h_passed_lib[e] >= 0:
        out[O_PASSED] = state.h_passed_lib[e]
        out[O_PASSED + 1] = 2 - state.h_passed_lib[e]


@njit(cache=True)
def _observe_history(state, out):
    n = state.num_players
    rows = min(HISTORY, state.elections)
    for i in range(rows):
        e = state.elections - 1 - i
        out[OH_VALID + i] = 1.0
        out[OH_PRESIDENT + i * P + int(state.h_president[e])] = 1.0
        out[OH_NOMINEE + i * P + int(state.h_nominee[e])] = 1.0
        for p in range(n):
            ballot = state.h_ballot[e, p]
            if ballot == JA:
                out[OH_JA + i * P + p] = 1.0
            elif ballot == NEIN:
                out[OH_NEIN + i * P + p] = 1.0
        out[OH_ELECTED + i] = state.h_elected[e]
        if state.h_policy[e] >= 0:
            out[OH_POLICY + 2 * i + int(state.h_policy[e])] = 1.0
        out[OH_CHAOS + i] = state.h_chaos[e]
        if state.h_veto[e] > 0:
            out[OH_VETO + 2 * i + int(state.h_veto[e]) - 1] = 1.0
        if state.h_pres_claim[e] >= 0:
            out[OH_PRES_CLAIM + 5 * i + int(state.h_pres_claim[e])] = 1.0
        if state.h_chanc_claim[e] >= 0:
            out[OH_CHANC_CLAIM + 4 * i + int(state.h_chanc_claim[e])] = 1.0
        power = int(state.h_power[e])
        if power >= 0:
            out[OH_POWER + 4 * i + power] = 1.0
            if state.h_target[e] >= 0:
                out[OH_TARGET + i * P + int(state.h_target[e])] = 1.0
            claim = int(state.h_power_claim[e])
            if claim >= 0:
                if power == INVESTIGATE:
                    out[OH_INV_CLAIM + 3 * i + claim] = 1.0
                else:
                    out[OH_PEEK_CLAIM + 5 * i + claim] = 1.0


# ---- determinization -------------------------------------------------------------------------


@njit(cache=True)
def determinize(state, seat, seed):
    """Resample what ``seat`` cannot know: others' roles, unseen cards, ballots not yet revealed.

    Roles are drawn uniformly among the assignments consistent with the seat's own role, what its
    role shows it, its investigations and the public facts (players proven not Hitler). Cards are
    resampled epoch by epoch: within an epoch every card whose type the seat has not seen (others'
    discards, hands it does not hold, deck positions it has not peeked) is dealt uniformly from
    the epoch's public composition minus the cards it has seen. The generator is then reseeded
    from ``seed`` so that no true future randomness leaks.
    """
    seed_rng(state, seed)  # everything drawn below comes from `seed` alone
    if not knows_all_roles(state, seat):
        _resample_roles(state, seat)
    if state.phase == ELECTION:
        for p in range(state.num_players):
            if p != seat and state.ballot[p] != NO_BALLOT:
                state.ballot[p] = JA if randint(state, 2) == 0 else NEIN
    for epoch in range(state.epoch + 1):
        _resample_epoch(state, seat, epoch)


@njit(cache=True)
def _role_fits(state, seat, p, role):
    if state.investigator[p] == seat and party_of(role) != party_of(state.role[p]):
        return False
    return not (role == HITLER and state.cleared[p] != 0)


@njit(cache=True)
def _resample_roles(state, seat):
    """Uniform over consistent assignments: shuffle the unknown roles until every constraint holds."""
    n = state.num_players
    seats = np.empty(MAX_PLAYERS, np.int8)
    roles = np.empty(MAX_PLAYERS, np.int8)
    m = 0
    for p in range(n):
        # A seat it investigated and found liberal can only be liberal: keep it out of the draw.
        if p != seat and not (state.investigator[p] == seat and state.role[p] == LIBERAL):
            seats[m] = p
            roles[m] = state.role[p]
            m += 1
    while True:
        shuffle(state, roles, m)
        fits = True
        for i in range(m):
            if not _role_fits(state, seat, seats[i], roles[i]):
                fits = False
                break
        if fits:
            break
    for i in range(m):
        state.role[seats[i]] = roles[i]


@njit(cache=True)
def _resample_epoch(state, seat, epoch):
    current = epoch == state.epoch
    pool_lib = state.epoch_lib[epoch] - state.epoch_chaos_lib[epoch]
    pool_fas = state.epoch_fas[epoch] - state.epoch_chaos_fas[epoch]
    slots = 0  # cards of this epoch whose type the seat has not seen
    for e in range(state.elections):
        if state.h_session[e] == 0 or state.h_epoch[e] != epoch:
            continue
        if state.h_veto[e] != 1 and state.h_chaos[e] == 0 and state.h_policy[e] >= 0:
            if state.h_policy[e] == LIBERAL:
                pool_lib -= 1
            else:
                pool_fas -= 1
        in_government = seat == state.h_president[e] or seat == state.h_nominee[e]
        for k in range(3):
            card = state.h_pres_discard[e] if k == 0 else state.h_chanc_discard[e, k - 1]
            if card < 0:
                continue
            if seat == state.h_president[e] or (k > 0 and in_government):
                if card == LIBERAL:
                    pool_lib -= 1
                else:
                    pool_fas -= 1
            else:
                slots += 1
    hand_known = knows_hand(state, seat)
    peek_from = state.deck_size  # deck positions >= this are known to the seat
    if current:
        if hand_known:
            pool_lib -= state.hand_lib
            pool_fas -= state.hand_fas
        else:
            slots += state.hand_lib + state.hand_fas
        if state.peeker == seat:
            peek_from = state.peek_base
            for pos in range(state.peek_base, state.deck_size):
                if state.deck[pos] == LIBERAL:
                    pool_lib -= 1
                else:
                    pool_fas -= 1
        slots += min(peek_from, state.deck_size)
    else:
        slots += state.epoch_remainder[epoch]
    # Deal the unseen cards: pool_lib liberals and pool_fas fascists into `slots` places.
    cards = np.empty(DECK_CARDS, np.int8)
    for i in range(slots):
        cards[i] = LIBERAL if i < pool_lib else FASCIST
    shuffle(state, cards, slots)
    k = 0
    for e in range(state.elections):
        if state.h_session[e] == 0 or state.h_epoch[e] != epoch:
            continue
        in_government = seat == state.h_president[e] or seat == state.h_nominee[e]
        if state.h_pres_discard[e] >= 0 and seat != state.h_president[e]:
            state.h_pres_discard[e] = cards[k]
            k += 1
        for j in range(2):
            if state.h_chanc_discard[e, j] >= 0 and not in_government:
                state.h_chanc_discard[e, j] = cards[k]
                k += 1
    if current:
        if not hand_known and state.hand_lib + state.hand_fas > 0:
            size = state.hand_lib + state.hand_fas
            lib = 0
            for _ in range(size):
                lib += cards[k] == LIBERAL
                k += 1
            state.hand_lib = lib
            state.hand_fas = size - lib
        for pos in range(min(peek_from, state.deck_size)):
            state.deck[pos] = cards[k]
            k += 1
    _recount_sessions(state, epoch)


@njit(cache=True)
def _recount_sessions(state, epoch):
    """Derive each session's drawn and passed cards (and the discard pile) from its discards."""
    lib_discards = 0
    fas_discards = 0
    for e in range(state.elections):
        if state.h_session[e] == 0 or state.h_epoch[e] != epoch:
            continue
        pres = state.h_pres_discard[e]
        if pres < 0:  # the president still holds the three cards
            state.h_drawn_lib[e] = state.hand_lib
            continue
        first = state.h_chanc_discard[e, 0]
        if first < 0:  # the chancellor still holds the two cards
            passed = state.hand_lib
        elif state.h_veto[e] == 1:
            passed = int(first == LIBERAL) + int(state.h_chanc_discard[e, 1] == LIBERAL)
        else:
            passed = int(first == LIBERAL) + int(state.h_policy[e] == LIBERAL)
        state.h_passed_lib[e] = passed
        state.h_drawn_lib[e] = passed + int(pres == LIBERAL)
        for card in (pres, first, state.h_chanc_discard[e, 1]):
            if card == LIBERAL:
                lib_discards += 1
            elif card == FASCIST:
                fas_discards += 1
    if epoch == state.epoch:
        state.discard_lib = lib_discards
        state.discard_fas = fas_discards


register_engine(STATE, reset=reset, legal_mask=legal_mask, step=step, observe=observe, determinize=determinize)
