"""Secret Hitler rules (Max Temkin et al., 5-10 players) over one numba record.

Everything here is rules; the PettingZoo adapter, options and documentation live in ``env.py``.
The rulebook (``shared/rulebooks/secret_hitler.txt``) decides; where it is silent the official
rules or a decision listed in ``docs/rules/secret_hitler.md`` do. Three rules follow the rulebook
by default and the official rules as options (in the record, so every function reads them):
``hitler_knows`` (Hitler knows nobody; official: the fascist at 5-6 players), ``term_limits``
(the government that last enacted a policy; official: the last elected one, its president free
with 5 or fewer living) and ``reshuffle`` (when the president draws from fewer than 3; official:
after every session and chaos enactment that leaves fewer than 3).

The game runs as a sequence of phases, each with one seat to act:

    NOMINATION -> ELECTION (every living seat votes, one after another, ballots hidden until the
    last) -> PRESIDENT_LEGISLATES -> CHANCELLOR_LEGISLATES [-> VETO] -> PRESIDENT_CLAIM ->
    CHANCELLOR_CLAIM -> a presidential power (INVESTIGATION [-> INVESTIGATION_CLAIM],
    PEEK_CLAIM, SPECIAL_ELECTION, EXECUTION) -> NOMINATION of the next president ...

Card bookkeeping. Every election is an entry of the history arrays ``h_*`` (a game has at most
30 elections: the tracker forces a policy every third failure, and at most 10 policies are
enacted). An entry whose government drew cards holds that session's discards. Between two
reshuffles (an *epoch*) the discard pile is exactly the discards of that epoch's sessions, and
each epoch starts from a public composition (every card not enacted is in the new deck: nobody
holds a hand when the deck is reshuffled); this is
what lets :func:`determinize` resample cards exactly. The policy peek (at most one a game) is
kept with where its policies went (chaos, the hand of ``peek_session``, or back into the pile).

Observation (``observe``): the seat's whole information state, so a feed-forward policy forgets
nothing: every election of the game (30 rows, most recent first) with the cards the seat saw in
each, its investigations and peek for the whole game, and per-player track records
(``LAYOUT``; documented block by block in ``env.py``).

Validity (``check_state``, ``STATE_BOUNDS``, ``STATE_PROBLEMS``): a record passes exactly when
the rules can reach it from a deal: roles, the 17 policies, hand and phase, the seat to act, the
government, the ballots, and the whole history replayed (presidency, voters, tracker, chaos,
vetoes, powers, tracks, public facts, epochs, the peek), then the end of the game.

Playout value (``playout_value``): each seat's expected reward from the policy tracks alone:
with p = :func:`liberal_win_chance` (the liberals fill their track first if every coming policy
were drawn blind from those not yet enacted), liberals get 2p - 1, fascists and Hitler 1 - 2p,
everybody 0 once the game is over. It ignores Hitler's election and execution.
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
MAX_ELECTIONS = 30  # per game: the tracker forces a policy every third failure, and at most 10 are enacted
HISTORY_CAP = 32  # history entries in the record (every election of a game fits)
MAX_EPOCHS = 20  # deck reshuffles + 1 (at most 10: an epoch spends >= 6 policies, a game <= 65)
HISTORY = MAX_ELECTIONS  # elections shown in the observation, most recent first: the whole game

# Options held in the record (``make_config``): the rulebook's rule is 0, the official rules' 1.
TERM_LIMITS_RULEBOOK = 0  # the president and chancellor that enacted the last policy
TERM_LIMITS_OFFICIAL = 1  # the last elected government; with 5 or fewer living only its chancellor
RESHUFFLE_AT_DRAW = 0  # when the president draws from fewer than 3 (chaos: from an empty deck)
RESHUFFLE_AFTER_SESSION = 1  # after every session and chaos enactment that leaves fewer than 3
TERM_LIMIT_RULES = ("rulebook", "official")
RESHUFFLE_RULES = ("at_draw", "after_session")

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
    ("term_limits", np.int8),  # TERM_LIMITS_RULEBOOK or TERM_LIMITS_OFFICIAL
    ("reshuffle", np.int8),  # RESHUFFLE_AT_DRAW or RESHUFFLE_AFTER_SESSION
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
    ("last_president", np.int8),  # the term-limited government (``term_limits``); -1 none
    ("last_chancellor", np.int8),
    ("rotation", np.int8),  # the regular presidency passes left from this seat
    ("special_next", np.int8),  # seat chosen by a special election, -1 none
    ("ballot", np.int8, (MAX_PLAYERS,)),  # votes of the running election, hidden until all are in
    ("veto_refused", np.int8),
    ("pending_power", np.int8),
    # The policy peek (at most one a game: only the 3rd fascist policy at 5-6 players grants it).
    ("peeker", np.int8),  # the president who peeked, -1 nobody
    ("peek_cards", np.int8, (3,)),  # what it saw, next first; -1 before the peek
    ("peek_epoch", np.int8),  # the epoch the peek happened in, -1
    ("peek_base", np.int8),  # deck position of the third peeked card in that epoch
    ("peek_session", np.int8),  # the election whose session drew the peeked cards left on the deck, -1
    ("peek_rest", np.int8),  # how many it drew, or how many a reshuffle took back (the rest went to chaos)
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

CONFIG = config_dtype([("claims", np.int8), ("hitler_knows", np.int8),  # hitler_knows -1: auto
                       ("term_limits", np.int8), ("reshuffle", np.int8)])

# ---- the observation ------------------------------------------------------------------------
# The seat's whole information state: its role and what it shows, the table now, what it holds or
# peeked now, every election of the game (with what it saw itself in each), and per player the
# track record a player keeps in mind. Counts are plain numbers, everything else 0/1.
P, R = MAX_PLAYERS, HISTORY
LAYOUT = Layout(
    # -- who this seat is and what its role shows it
    ("seat", P, 0, 1, "one-hot: this seat"),
    ("in_game", P, 0, 1, "seats taking part (num_players)"),
    ("role", 3, 0, 1, "own role: liberal, fascist, Hitler"),
    ("party", 2, 0, 1, "own party membership: liberal, fascist (Hitler is fascist)"),
    ("known_roles", (P, 3), 0, 1, "roles this seat knows (own; fascists and an informed Hitler: all)"),
    ("investigation", (P, 2), 0, 1, "party memberships this seat saw by investigating"),
    # -- the table now
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
    ("term_limited", P, 0, 1, "living players the president now may not nominate chancellor (term limits)"),
    ("veto_unlocked", 1, 0, 1, "5 fascist policies are enacted: the veto power exists"),
    ("phase", NUM_PHASES, 0, 1, "one-hot: the phase"),
    ("to_act", P, 0, 1, "one-hot: the seat to act"),
    # -- private, now
    ("my_ballot", 2, 0, 1, "ja, nein: this seat's own ballot in the running election (before the reveal)"),
    ("hand", 2, 0, 3, "liberal, fascist policies this seat holds now"),
    ("drawn", 2, 0, 3, "liberal, fascist among the 3 policies this seat drew as president in the last session"),
    ("passed", 2, 0, 2, "liberal, fascist passed to the chancellor in the last session (its president and chancellor)"),
    ("peek", (3, 2), 0, 1, "policies this seat peeked that are still on top of the deck, next first"),
    ("peek_seen", (3, 2), 0, 1, "the 3 policies this seat saw with its policy peek, next first (kept all game)"),
    # -- every election of the game, most recent first (row i: the (i+1)-th most recent)
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
    ("hist_drawn", (R, 2), 0, 3, "liberal, fascist among the 3 policies this seat drew as its president"),
    ("hist_received", (R, 2), 0, 2, "liberal, fascist passed to its chancellor, if this seat was in that government"),
    # -- per player, over the whole game
    ("sessions", (P, 2), 0, MAX_ELECTIONS, "legislative sessions held as president, as chancellor"),
    ("enacted_by", (P, 2, 2), 0, FASCIST_WIN,
     "[as president, as chancellor][liberal, fascist]: policies enacted by its governments"),
    ("ja_for", (P, 2), 0, LIBERAL_WIN + FASCIST_WIN - 1,
     "its ja votes for governments that then enacted a liberal, a fascist policy"),
    ("claim_conflicts", P, 0, MAX_ELECTIONS, "its sessions whose president and chancellor claims cannot both be true"),
    ("false_claims", P, 0, MAX_ELECTIONS, "its claims the enacted policy proves false (0 fascists and a fascist enacted...)"),
    ("lies_seen", P, 0, MAX_ELECTIONS, "its claims this seat knows are false: from its own cards, its peek, roles it knows"),
    ("liberal_discards_seen", P, 0, MAX_ELECTIONS,
     "liberal policies it discarded as chancellor, seen by this seat as the president who passed them"),
    ("claimed_party", (P, 2), 0, 1, "the president who investigated it claimed it liberal, fascist"),
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
O_MY_BALLOT, O_HAND, O_DRAWN, O_PASSED = _O["my_ballot"], _O["hand"], _O["drawn"], _O["passed"]
O_PEEK, O_PEEK_SEEN = _O["peek"], _O["peek_seen"]
OH_VALID, OH_PRESIDENT, OH_NOMINEE, OH_JA, OH_NEIN = (
    _O["hist_valid"], _O["hist_president"], _O["hist_nominee"], _O["hist_ja"], _O["hist_nein"])
OH_ELECTED, OH_POLICY, OH_CHAOS, OH_VETO = (
    _O["hist_elected"], _O["hist_policy"], _O["hist_chaos"], _O["hist_veto"])
OH_PRES_CLAIM, OH_CHANC_CLAIM, OH_POWER, OH_TARGET = (
    _O["hist_president_claim"], _O["hist_chancellor_claim"], _O["hist_power"], _O["hist_target"])
OH_INV_CLAIM, OH_PEEK_CLAIM = _O["hist_investigation_claim"], _O["hist_peek_claim"]
OH_DRAWN, OH_RECEIVED = _O["hist_drawn"], _O["hist_received"]
OS_SESSIONS, OS_ENACTED, OS_JA_FOR = _O["sessions"], _O["enacted_by"], _O["ja_for"]
OS_CONFLICTS, OS_FALSE, OS_LIES, OS_DISCARDS, OS_CLAIMED = (
    _O["claim_conflicts"], _O["false_claims"], _O["lies_seen"], _O["liberal_discards_seen"], _O["claimed_party"])


def make_config(config):
    """The CONFIG record for a validated option dict."""
    record = np.zeros(1, CONFIG)
    record["num_players"] = config["num_players"]
    record["claims"] = 1 if config["claims"] else 0
    knows = config["hitler_knows_fascists"]
    record["hitler_knows"] = -1 if knows == "auto" else int(bool(knows))
    record["term_limits"] = TERM_LIMIT_RULES.index(config["term_limits"])
    record["reshuffle"] = RESHUFFLE_RULES.index(config["reshuffle"])
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
def barred_by_limits(rule, living, last_president, last_chancellor, seat):
    """Whether the term limits bar ``seat`` from the chancellorship, before the exception of
    :func:`limited_among`. ``last_president``/``last_chancellor`` are the government the rule
    remembers (-1: none): with TERM_LIMITS_RULEBOOK the one that enacted the last policy, both
    barred; with TERM_LIMITS_OFFICIAL the last elected one, its president only with more than 5
    ``living`` players."""
    if seat == last_chancellor:
        return True
    return seat == last_president and (rule == TERM_LIMITS_RULEBOOK or living > 5)


@njit(cache=True)
def limited_among(rule, alive, num_players, living, president, last_president, last_chancellor, seat):
    """Whether ``president`` may not nominate ``seat`` for the term limits: it is barred, and some
    other living player is not. When the limits bar every living player but the president (3
    living, the other two the last government) they are lifted for that nomination.

    The one definition of the term limits: the engine (masks, observation, ``check_state``'s
    replay of the history, with its own ``alive``) and the renderer call it."""
    if not barred_by_limits(rule, living, last_president, last_chancellor, seat):
        return False
    for p in range(num_players):
        if p != president and alive[p] != 0 and not barred_by_limits(rule, living, last_president,
                                                                     last_chancellor, p):
            return True
    return False


@njit(cache=True)
def term_limited(state, seat):
    """Whether the president now may not nominate ``seat`` chancellor for the term limits."""
    return limited_among(state.term_limits, state.alive, state.num_players, state.living, state.president,
                         state.last_president, state.last_chancellor, seat)


@njit(cache=True)
def knows_all_roles(state, seat):
    role = state.role[seat]
    return role == FASCIST or (role == HITLER and state.hitler_knows == 1)


@njit(cache=True)
def peek_on_deck(state):
    """How many peeked policies are still on top of the deck (they are the last of ``peek_cards``)."""
    if state.peeker < 0 or state.peek_epoch != state.epoch:
        return 0
    return max(0, int(state.deck_size) - int(state.peek_base))


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
    state.term_limits = config.term_limits
    state.reshuffle = config.reshuffle
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
    state.peek_cards[:] = UNSET
    state.peek_epoch = -1
    state.peek_session = -1
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
    """Fewer than 3 policies left: shuffle the discards into the deck."""
    if state.deck_size < 3:
        _reshuffle(state)


@njit(cache=True)
def _reshuffle_after(state):
    """The end of a session or a chaos enactment: the official rules' reshuffle (option)."""
    if state.reshuffle == RESHUFFLE_AFTER_SESSION:
        _reshuffle_if_short(state)


@njit(cache=True)
def _reshuffle(state):
    """Shuffle the discards into what is left of the deck; a new epoch begins. Nobody holds a
    hand (the caller makes sure), so the new deck is every policy not on the tracks."""
    left = peek_on_deck(state)
    if left > 0:
        state.peek_rest = left  # the peeked policies still on top go back into the pile
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
    if state.deck_size == 0:  # (only with reshuffle="at_draw": the other rule never leaves it short)
        _reshuffle(state)
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
    _reshuffle_after(state)
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
    if state.term_limits == TERM_LIMITS_OFFICIAL:  # the elected government is term-limited
        state.last_president = state.president
        state.last_chancellor = chancellor
    if state.fascist_enacted >= HITLER_ZONE:
        if state.role[chancellor] == HITLER:
            _end(state, FASCIST, HITLER_ELECTED)
            return
        state.cleared[chancellor] = 1  # everybody now knows this player is not Hitler
    # The legislative session: the president draws the top three, the discards shuffled in first
    # if fewer remain (reshuffle="after_session" never leaves fewer).
    _reshuffle_if_short(state)
    left = peek_on_deck(state)
    if left > 0:  # with them the peeked policies still on the deck
        state.peek_session = e
        state.peek_rest = left
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
    if state.term_limits == TERM_LIMITS_RULEBOOK:  # the government that enacted it is term-limited
        state.last_president = state.president
        state.last_chancellor = state.chancellor
    if _enact(state, enacted):
        return
    _reshuffle_after(state)
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
    _reshuffle_after(state)  # the session is over (chaos reshuffles an empty deck itself)
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
        # Fewer than 3 left: the discards are shuffled in first (as the next draw would), so the
        # president sees the three policies the next president will draw.
        _reshuffle_if_short(state)
        state.peeker = state.president
        state.peek_epoch = state.epoch
        state.peek_base = state.deck_size - 3
        for i in range(3):
            state.peek_cards[i] = state.deck[state.deck_size - 1 - i]
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
    _observe_table(state, seat, out)
    _observe_private(state, seat, out)
    elections = int(state.elections)
    for e in range(elections):
        _observe_election(state, seat, e, elections - 1 - e, out)


@njit(cache=True)
def _observe_table(state, seat, out):
    """Who the seat is, what its role shows it, and the public table now."""
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


@njit(cache=True)
def _observe_private(state, seat, out):
    """Its ballot before the reveal, the cards it holds, its last session, its peek."""
    if state.ballot[seat] != NO_BALLOT:
        out[O_MY_BALLOT + int(state.ballot[seat]) - JA] = 1.0
    if holds_hand(state, seat):
        out[O_HAND] = state.hand_lib
        out[O_HAND + 1] = state.hand_fas
    e = state.last_session
    if e >= 0:
        president = state.h_president[e]
        if seat == president:
            out[O_DRAWN] = state.h_drawn_lib[e]
            out[O_DRAWN + 1] = 3 - state.h_drawn_lib[e]
        if (seat == president or seat == state.h_nominee[e]) and state.h_passed_lib[e] >= 0:
            out[O_PASSED] = state.h_passed_lib[e]
            out[O_PASSED + 1] = 2 - state.h_passed_lib[e]
    if state.peeker == seat:
        for i in range(3):
            out[O_PEEK_SEEN + 2 * i + int(state.peek_cards[i])] = 1.0
        left = peek_on_deck(state)
        for i in range(left):  # the last `left` peeked cards, the next one first
            out[O_PEEK + 2 * i + int(state.peek_cards[3 - left + i])] = 1.0


@njit(cache=True)
def _observe_election(state, seat, e, row, out):
    """Election ``e`` into history row ``row`` (as the table saw it, with the cards ``seat`` saw
    in it) and into the players' track records (one pass: this runs for every election at every
    decision)."""
    president, nominee = int(state.h_president[e]), int(state.h_nominee[e])
    policy, chaos = int(state.h_policy[e]), state.h_chaos[e]
    by_government = policy >= 0 and chaos == 0
    out[OH_VALID + row] = 1.0
    out[OH_PRESIDENT + row * P + president] = 1.0
    out[OH_NOMINEE + row * P + nominee] = 1.0
    for p in range(state.num_players):  # branch-free: ballots are as good as random to a CPU
        out[OH_JA + row * P + p] = state.h_ballot[e, p] == JA
        out[OH_NEIN + row * P + p] = state.h_ballot[e, p] == NEIN
    if by_government:
        for p in range(state.num_players):
            out[OS_JA_FOR + 2 * p + policy] += state.h_ballot[e, p] == JA
    out[OH_ELECTED + row] = state.h_elected[e]
    out[OH_CHAOS + row] = chaos
    if policy >= 0:
        out[OH_POLICY + 2 * row + policy] = 1.0
    if state.h_veto[e] > 0:
        out[OH_VETO + 2 * row + int(state.h_veto[e]) - 1] = 1.0
    pres_claim, chanc_claim = int(state.h_pres_claim[e]), int(state.h_chanc_claim[e])
    if pres_claim >= 0:
        out[OH_PRES_CLAIM + 5 * row + pres_claim] = 1.0
    if chanc_claim >= 0:
        out[OH_CHANC_CLAIM + 4 * row + chanc_claim] = 1.0
        if 0 <= pres_claim <= 3 and chanc_claim <= 2 and chanc_claim != pres_claim and chanc_claim != pres_claim - 1:
            out[OS_CONFLICTS + president] += 1.0  # the 2 passed hold pres_claim or pres_claim - 1 fascists
            out[OS_CONFLICTS + nominee] += 1.0
    if state.h_power[e] != NO_POWER:
        _observe_power(state, seat, e, row, out)
    if state.h_session[e] == 0:
        return
    out[OS_SESSIONS + 2 * president] += 1.0
    out[OS_SESSIONS + 2 * nominee + 1] += 1.0
    if by_government:
        out[OS_ENACTED + 4 * president + policy] += 1.0
        out[OS_ENACTED + 4 * nominee + 2 + policy] += 1.0
        out[OS_FALSE + president] += _refuted_by_policy(pres_claim, 3, policy)
        out[OS_FALSE + nominee] += _refuted_by_policy(chanc_claim, 2, policy)
    if seat == president or seat == nominee or seat == state.peeker and e == state.peek_session:
        _observe_own_session(state, seat, e, row, out)


@njit(cache=True)
def _observe_power(state, seat, e, row, out):
    """The power used in election ``e``: history row, investigation claims, lies ``seat`` sees."""
    power, target, claim = int(state.h_power[e]), int(state.h_target[e]), int(state.h_power_claim[e])
    out[OH_POWER + 4 * row + power] = 1.0
    if target >= 0:
        out[OH_TARGET + row * P + target] = 1.0
    if claim >= 0:
        if power == INVESTIGATE:
            out[OH_INV_CLAIM + 3 * row + claim] = 1.0
            if target >= 0 and claim <= FASCIST:
                out[OS_CLAIMED + 2 * target + claim] = 1.0
        else:
            out[OH_PEEK_CLAIM + 5 * row + claim] = 1.0
    president = int(state.h_president[e])
    if seat != president:
        out[OS_LIES + president] += _power_claim_refuted(state, seat, e)


@njit(cache=True)
def _observe_own_session(state, seat, e, row, out):
    """A session ``seat`` saw cards of (as president, chancellor, or peeker of its hand): what it
    saw, and the claims and discards that contradict it."""
    president, nominee = int(state.h_president[e]), int(state.h_nominee[e])
    if seat == president:
        out[OH_DRAWN + 2 * row] = state.h_drawn_lib[e]
        out[OH_DRAWN + 2 * row + 1] = 3 - state.h_drawn_lib[e]
        if state.h_chanc_discard[e, 0] == LIBERAL and state.h_veto[e] != 1:
            out[OS_DISCARDS + nominee] += 1.0  # it passed a liberal, and the chancellor threw it away
    passed = state.h_passed_lib[e]
    if passed >= 0 and (seat == president or seat == nominee):
        out[OH_RECEIVED + 2 * row] = passed
        out[OH_RECEIVED + 2 * row + 1] = 2 - passed
    if seat != president:
        out[OS_LIES + president] += _outside(int(state.h_pres_claim[e]), 3, _drawn_fascists(state, seat, e))
    if seat != nominee:
        out[OS_LIES + nominee] += _outside(int(state.h_chanc_claim[e]), 2, _received_fascists(state, seat, e))


@njit(cache=True)
def _refuted_by_policy(claim, cards, policy):
    """1 if claiming ``claim`` fascists among ``cards`` contradicts enacting ``policy`` from them."""
    if policy == FASCIST:
        return 1 if claim == 0 else 0
    return 1 if claim == cards else 0


@njit(cache=True)
def _outside(claim, cards, bounds):
    """1 if a claim of ``claim`` fascists among ``cards`` (no claim: skipped) lies outside ``bounds``."""
    low, high = bounds
    return 1 if 0 <= claim <= cards and (claim < low or claim > high) else 0


@njit(cache=True)
def _peeked_drawn(state):
    """(liberal, fascist) among the peeked policies that session ``peek_session`` drew."""
    lib = 0
    for i in range(3 - state.peek_rest, 3):
        lib += state.peek_cards[i] == LIBERAL
    return lib, int(state.peek_rest) - lib


@njit(cache=True)
def _drawn_fascists(state, seat, e):
    """The fascists among the 3 policies session ``e`` drew, as far as ``seat`` knows: (low, high)."""
    if state.h_session[e] == 0:
        return 0, 3
    if seat == state.h_president[e]:
        fascists = 3 - int(state.h_drawn_lib[e])
        return fascists, fascists
    low, high = 0, 3
    passed = int(state.h_passed_lib[e])
    if seat == state.h_nominee[e] and passed >= 0:  # the 2 it received and the 1 it did not see
        low, high = 2 - passed, 3 - passed
    if seat == state.peeker and e == state.peek_session:  # the peeked policies it drew
        lib, fas = _peeked_drawn(state)
        low, high = max(low, fas), min(high, 3 - lib)
    return low, high


@njit(cache=True)
def _received_fascists(state, seat, e):
    """The fascists among the 2 policies session ``e``'s chancellor received, as far as ``seat`` knows."""
    passed = int(state.h_passed_lib[e])
    if passed >= 0 and (seat == state.h_president[e] or seat == state.h_nominee[e]):
        return 2 - passed, 2 - passed
    low, high = _drawn_fascists(state, seat, e)
    return max(0, low - 1), min(2, high)


@njit(cache=True)
def _peek_chaos(state):
    """How many peeked policies chaos enactments took (the first ones: public)."""
    return 3 - peek_on_deck(state) - int(state.peek_rest)


@njit(cache=True)
def _power_claim_refuted(state, seat, e):
    """1 if ``seat`` knows the power claim of election ``e`` (not its own) is false."""
    claim = int(state.h_power_claim[e])
    if state.h_power[e] == INVESTIGATE:
        target = int(state.h_target[e])
        knows = target == seat or knows_all_roles(state, seat)
        return 1 if knows and 0 <= claim <= FASCIST and claim != party_of(state.role[target]) else 0
    if state.h_power[e] != PEEK or not 0 <= claim <= 3:
        return 0
    # The peeked policies that chaos enacted are public; those a session drew, its members bound.
    chaos = _peek_chaos(state)
    fascists = 0
    for i in range(chaos):
        fascists += state.peek_cards[i] == FASCIST
    rest = 3 - chaos
    low, high = fascists, fascists + rest
    if state.peek_session >= 0:
        drawn_low, drawn_high = _drawn_fascists(state, seat, state.peek_session)
        low += max(0, drawn_low - (3 - rest))
        high = fascists + min(rest, drawn_high)
    return 1 if claim < low or claim > high else 0


# ---- determinization -------------------------------------------------------------------------


@njit(cache=True)
def determinize(state, seat, seed):
    """Resample what ``seat`` cannot know: others' roles, unseen cards, ballots not yet revealed.

    Roles are drawn uniformly among the assignments consistent with the seat's own role, what its
    role shows it, its investigations and the public facts (players proven not Hitler). Cards are
    resampled epoch by epoch: within an epoch every card whose type the seat has not seen (others'
    discards, hands it does not hold, deck positions it has not peeked) is dealt uniformly from
    the epoch's public composition minus the cards it has seen; for the peeker, conditioned on the
    peeked policies being in the hand that drew them (or in what a reshuffle took back). Another
    seat's record of the peek is then made to fit the new cards. The generator is reseeded from
    ``seed`` first, so that no true future randomness leaks.
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
    if state.peeker >= 0 and seat != state.peeker:
        _resample_peek(state)


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
    # The roles in a fixed order before the draw: the seat knows which roles are out, not where
    # they lie, so the sample must not depend on the true seating (only on the seed).
    roles[:m].sort()
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
    """Deal the epoch's unseen cards; the peeker's deals are redrawn until its peek fits (exact)."""
    _deal_epoch(state, seat, epoch)
    if seat == state.peeker and epoch == state.peek_epoch and state.peek_rest > 0:
        while not _peek_fits(state):
            _deal_epoch(state, seat, epoch)


@njit(cache=True)
def _remainder_lib(state, epoch):
    """Liberals among what was left of a past epoch's deck when it was reshuffled."""
    lib = int(state.epoch_lib[epoch]) - int(state.epoch_chaos_lib[epoch])
    for e in range(state.elections):
        if state.h_session[e] != 0 and state.h_epoch[e] == epoch:
            lib -= state.h_drawn_lib[e]
    return lib


@njit(cache=True)
def _peek_fits(state):
    """Whether the peeked policies that left the deck with a draw or a reshuffle are where they went."""
    lib, fas = _peeked_drawn(state)
    if state.peek_session >= 0:
        have_lib, have = int(state.h_drawn_lib[state.peek_session]), 3
    else:
        have_lib, have = _remainder_lib(state, state.peek_epoch), int(state.epoch_remainder[state.peek_epoch])
    return lib <= have_lib and fas <= have - have_lib


@njit(cache=True)
def _resample_peek(state):
    """Another seat's view: the peeked policies become those now in their places (chaos's stay)."""
    left = peek_on_deck(state)
    for i in range(left):
        state.peek_cards[3 - left + i] = state.deck[state.deck_size - 1 - i]
    rest = int(state.peek_rest)
    if left > 0 or rest == 0:
        return
    if state.peek_session >= 0:  # `rest` of the 3 the session drew, which ones unknown
        lib, size = int(state.h_drawn_lib[state.peek_session]), 3
    else:  # `rest` of what a reshuffle took back
        lib, size = _remainder_lib(state, state.peek_epoch), int(state.epoch_remainder[state.peek_epoch])
    cards = np.empty(3, np.int8)
    for i in range(size):
        cards[i] = LIBERAL if i < lib else FASCIST
    shuffle(state, cards, size)
    for i in range(rest):
        state.peek_cards[3 - rest + i] = cards[i]


@njit(cache=True)
def _deal_epoch(state, seat, epoch):
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
        if state.peeker == seat and peek_on_deck(state) > 0:
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


# ---- a record the rules can reach (check_records) ------------------------------------------

_SEAT, _SEAT_OR_NONE = (0, MAX_PLAYERS - 1), (-1, MAX_PLAYERS - 1)
_EPOCH = (0, 15)  # an epoch spends >= 6 policies and a game at most 65: 10 epochs at most
_ELECTION_OR_NONE = (-1, MAX_ELECTIONS - 1)
#: The inclusive range of every element of each game field (unused entries are 0).
STATE_BOUNDS = {
    "phase": (0, NUM_PHASES - 1), "claims": (0, 1), "hitler_knows": (0, 1),
    "term_limits": (TERM_LIMITS_RULEBOOK, TERM_LIMITS_OFFICIAL),
    "reshuffle": (RESHUFFLE_AT_DRAW, RESHUFFLE_AFTER_SESSION),
    "role": (LIBERAL, HITLER), "alive": (0, 1), "living": (3, MAX_PLAYERS), "cleared": (0, 1),
    "investigator": _SEAT_OR_NONE,
    "liberal_enacted": (0, LIBERAL_WIN), "fascist_enacted": (0, FASCIST_WIN), "tracker": (0, CHAOS - 1),
    "deck": (LIBERAL, FASCIST), "deck_size": (0, DECK_CARDS),
    "discard_lib": (0, NUM_LIBERAL_POLICIES), "discard_fas": (0, NUM_FASCIST_POLICIES),
    "hand_lib": (0, 3), "hand_fas": (0, 3),
    "president": _SEAT, "nominee": _SEAT_OR_NONE, "chancellor": _SEAT_OR_NONE,
    "last_president": _SEAT_OR_NONE, "last_chancellor": _SEAT_OR_NONE, "rotation": _SEAT,
    "special_next": (-1, -1),  # set and used within the step that calls the special election
    "ballot": (NO_BALLOT, NEIN), "veto_refused": (0, 1), "pending_power": (NO_POWER, EXECUTE),
    "peeker": _SEAT_OR_NONE, "peek_cards": (UNSET, FASCIST), "peek_epoch": (-1, _EPOCH[1]),
    "peek_base": (0, DECK_CARDS - 3), "peek_session": _ELECTION_OR_NONE, "peek_rest": (0, 3),
    "winner": (-1, FASCIST), "win_reason": (NOT_OVER, HITLER_ELECTED),
    "elections": (0, MAX_ELECTIONS), "last_session": _ELECTION_OR_NONE, "epoch": _EPOCH,
    "epoch_lib": (0, NUM_LIBERAL_POLICIES), "epoch_fas": (0, NUM_FASCIST_POLICIES),
    "epoch_chaos_lib": (0, LIBERAL_WIN), "epoch_chaos_fas": (0, FASCIST_WIN), "epoch_remainder": (0, 2),
    "h_president": _SEAT, "h_nominee": _SEAT, "h_ballot": (NO_BALLOT, NEIN), "h_elected": (0, 1),
    "h_policy": (UNSET, FASCIST), "h_chaos": (0, 1), "h_veto": (0, 2), "h_pres_claim": (UNSET, 4),
    "h_chanc_claim": (UNSET, 3), "h_power": (NO_POWER, EXECUTE), "h_target": _SEAT_OR_NONE,
    "h_power_claim": (UNSET, 4), "h_session": (0, 1), "h_epoch": (-1, _EPOCH[1]), "h_drawn_lib": (UNSET, 3),
    "h_passed_lib": (UNSET, 2), "h_pres_discard": (UNSET, FASCIST), "h_chanc_discard": (UNSET, FASCIST),
}

STATE_PROBLEMS = (
    "ok",
    "roles do not fit the player count (one Hitler, the ordinary fascists, the rest liberal; unused seats blank)",
    "alive and living disagree, or more than two players were executed, or Hitler is dead in a running game",
    "the 17 policies are not accounted for exactly once (deck + discard pile + hand + tracks: 6 liberal, 11 fascist)",
    "the hand does not fit the phase (3 policies while the president legislates, 2 with the chancellor or a veto, "
    "none otherwise)",
    "phase and current_player disagree (the president acts, or the chancellor, or the next living voter)",
    "president, nominee or chancellor do not fit the phase (living, eligible, the government just elected)",
    "the ballots of the running election are not exactly those of the seats that have voted so far",
    "the draw pile holds fewer than 3 policies outside a legislative session (reshuffle=\"after_session\")",
    "history entries beyond `elections` are not blank",
    "an election entry is malformed (its seats, ballots and result, session cards, claims or power)",
    "the history does not replay: the presidency, the voters, the tracker, chaos enactments, vetoes, powers and "
    "tracks must follow from it",
    "the public facts do not follow from the history (executed, investigated, proven not Hitler, the term-limited "
    "government, last session)",
    "the epoch bookkeeping does not add up (each epoch: 3 policies a session, chaos, what was left; the next "
    "epoch's deck; the discard pile is this epoch's discards; the hand is the running session's; with "
    "reshuffle=\"at_draw\" each reshuffle made for a draw, an empty deck's chaos enactment or the peek)",
    "the peek bookkeeping does not fit the history, the deck or the hand that drew the peeked policies",
    "a pending power, the veto flags or a claim phase do not fit the game (options, band, phase, targets left)",
    "the end of the game does not fit (winner, reason, tracks, Hitler's fate and the rewards must agree)",
)
(BAD_ROLES, BAD_ALIVE, BAD_POLICIES, BAD_HAND, BAD_TURN, BAD_GOVERNMENT, BAD_BALLOTS, BAD_DECK, BAD_BLANK,
 BAD_ENTRY, BAD_REPLAY, BAD_FACTS, BAD_EPOCHS, BAD_PEEK, BAD_FLAGS, BAD_END) = range(1, len(STATE_PROBLEMS))
# The seat each phase waits for (the election: the next voter).
_PRESIDENT_PHASES = (NOMINATION, PRESIDENT_LEGISLATES, VETO, PRESIDENT_CLAIM, INVESTIGATION, INVESTIGATION_CLAIM,
                     PEEK_CLAIM, SPECIAL_ELECTION, EXECUTION)
# Phases of an elected government (its session, claims and power).
_GOVERNMENT_PHASES = (PRESIDENT_LEGISLATES, CHANCELLOR_LEGISLATES, VETO, PRESIDENT_CLAIM, CHANCELLOR_CLAIM,
                      INVESTIGATION, INVESTIGATION_CLAIM, PEEK_CLAIM, SPECIAL_ELECTION, EXECUTION)
_POWER_OF_PHASE = np.array([NO_POWER] * INVESTIGATION + [INVESTIGATE, INVESTIGATE, PEEK, SPECIAL, EXECUTE, NO_POWER],
                           np.int8)


@njit(cache=True)
def check_state(state):
    """0 if the record is a game the rules can reach, else the code of its first problem."""
    # In this order: each check may rely on the ones before it.
    if not _roles_ok(state):
        return BAD_ROLES
    if not _alive_ok(state):
        return BAD_ALIVE
    if not _policies_ok(state):
        return BAD_POLICIES
    if not _hand_ok(state):
        return BAD_HAND
    if not _turn_ok(state):
        return BAD_TURN
    if not _government_ok(state):
        return BAD_GOVERNMENT
    if not _ballots_ok(state):
        return BAD_BALLOTS
    if not _deck_ok(state):
        return BAD_DECK
    if not _blank_history_ok(state):
        return BAD_BLANK
    for e in range(state.elections):
        if not _entry_ok(state, e):
            return BAD_ENTRY
    if not _presidency_ok(state):
        return BAD_REPLAY
    code = _replay(state)  # BAD_REPLAY or BAD_FACTS
    if code != 0:
        return code
    if not _epochs_ok(state):
        return BAD_EPOCHS
    if not _peek_ok(state):
        return BAD_PEEK
    if not _flags_ok(state):
        return BAD_FLAGS
    if not _end_ok(state):
        return BAD_END
    return 0


@njit(cache=True)
def _roles_ok(state):
    n = state.num_players
    counts = np.zeros(3, np.int64)
    for p in range(n):
        counts[state.role[p]] += 1
    for p in range(n, MAX_PLAYERS):  # unused seats stay as reset left them
        if (state.role[p] != 0 or state.alive[p] != 0 or state.cleared[p] != 0 or state.investigator[p] != 0
                or state.ballot[p] != NO_BALLOT):
            return False
    fascists = fascists_without_hitler(n)
    return counts[HITLER] == 1 and counts[FASCIST] == fascists and counts[LIBERAL] == n - 1 - fascists


@njit(cache=True)
def _hitler(state):
    for p in range(state.num_players):
        if state.role[p] == HITLER:
            return p
    return -1


@njit(cache=True)
def _alive_ok(state):
    n = state.num_players
    living = 0
    for p in range(n):
        living += state.alive[p]
    hitler_dead = state.alive[_hitler(state)] == 0
    return living == state.living and living >= n - 2 and (state.terminal != 0 or not hitler_dead)


@njit(cache=True)
def _policies_ok(state):
    lib = int(state.discard_lib) + int(state.hand_lib) + int(state.liberal_enacted)
    fas = int(state.discard_fas) + int(state.hand_fas) + int(state.fascist_enacted)
    for i in range(state.deck_size):
        if state.deck[i] == LIBERAL:
            lib += 1
        else:
            fas += 1
    return lib == NUM_LIBERAL_POLICIES and fas == NUM_FASCIST_POLICIES


@njit(cache=True)
def _hand_ok(state):
    held = int(state.hand_lib) + int(state.hand_fas)
    if state.phase == PRESIDENT_LEGISLATES:
        return held == 3
    if state.phase == CHANCELLOR_LEGISLATES or state.phase == VETO:
        return held == 2
    return held == 0


@njit(cache=True)
def _turn_ok(state):
    phase = state.phase
    if (state.terminal != 0) != (phase == GAME_OVER):
        return False
    if phase == GAME_OVER:
        return True
    if phase == ELECTION:
        return state.alive[state.current_player] != 0
    if phase == CHANCELLOR_LEGISLATES or phase == CHANCELLOR_CLAIM:
        return state.current_player == state.chancellor
    return state.current_player == state.president


@njit(cache=True)
def _is_living_seat(state, seat):
    return 0 <= seat < state.num_players and state.alive[seat] != 0


@njit(cache=True)
def _government_ok(state):
    n = state.num_players
    if state.rotation >= n or state.last_president >= n or state.last_chancellor >= n:
        return False
    phase = state.phase
    if phase == GAME_OVER:
        return True
    if not _is_living_seat(state, state.president):
        return False
    if phase == NOMINATION:
        return state.nominee == -1 and state.chancellor == -1
    if state.elections == 0:
        return False
    nominee = state.nominee
    last = state.elections - 1  # the running election or the government it elected
    if state.h_president[last] != state.president or state.h_nominee[last] != nominee:
        return False
    if not _is_living_seat(state, nominee) or nominee == state.president:
        return False
    if phase == ELECTION:
        return state.chancellor == -1 and not term_limited(state, nominee)
    if state.chancellor != nominee:
        return False
    # An elected government is the term-limited one (official rules: once elected; the rulebook:
    # once it enacted), unless a veto threw the country into chaos, which lifts the limits.
    if state.h_chaos[last] != 0:
        return state.last_president == -1 and state.last_chancellor == -1
    if state.term_limits == TERM_LIMITS_OFFICIAL or state.h_policy[last] != UNSET:
        return state.last_president == state.president and state.last_chancellor == nominee
    return True  # before its enactment, or vetoed: an earlier government's limits (the replay checks them)


@njit(cache=True)
def _ballots_ok(state):
    n = state.num_players
    if state.phase != ELECTION:
        for p in range(n):
            if state.ballot[p] != NO_BALLOT:
                return False
        return True
    for p in range(n):
        if state.alive[p] == 0 and state.ballot[p] != NO_BALLOT:
            return False
    # From the president leftwards every living seat has voted, up to the one to act.
    voted = True
    p = int(state.president)
    for _ in range(state.living):
        if p == state.current_player:
            voted = False
        if (state.ballot[p] != NO_BALLOT) != voted:
            return False
        p = next_living(state, p)
    return not voted  # the seat to act was met


@njit(cache=True)
def _deck_ok(state):
    """With reshuffle="after_session" the deck holds 3 or more between sessions; with "at_draw" it
    may hold fewer until the next draw (the discards are then shuffled in)."""
    if state.reshuffle == RESHUFFLE_AT_DRAW:
        return True
    phase = state.phase
    drawn = phase == PRESIDENT_LEGISLATES or phase == CHANCELLOR_LEGISLATES or phase == VETO
    return state.terminal != 0 or drawn or state.deck_size >= 3


@njit(cache=True)
def _blank_history_ok(state):
    for e in range(state.elections, HISTORY_CAP):
        if (state.h_president[e] != 0 or state.h_nominee[e] != 0 or state.h_elected[e] != 0
                or state.h_policy[e] != 0 or state.h_chaos[e] != 0 or state.h_veto[e] != 0
                or state.h_pres_claim[e] != 0 or state.h_chanc_claim[e] != 0 or state.h_power[e] != 0
                or state.h_target[e] != 0 or state.h_power_claim[e] != 0 or state.h_session[e] != 0
                or state.h_epoch[e] != 0 or state.h_drawn_lib[e] != 0 or state.h_passed_lib[e] != 0
                or state.h_pres_discard[e] != 0 or state.h_chanc_discard[e, 0] != 0
                or state.h_chanc_discard[e, 1] != 0):
            return False
        for p in range(MAX_PLAYERS):
            if state.h_ballot[e, p] != NO_BALLOT:
                return False
    return True


@njit(cache=True)
def _entry_ok(state, e):
    """Election ``e`` on its own: seats, ballots and result, the session's cards, claims, power."""
    n = state.num_players
    president, nominee = int(state.h_president[e]), int(state.h_nominee[e])
    if president >= n or nominee >= n or president == nominee:
        return False
    for p in range(n, MAX_PLAYERS):
        if state.h_ballot[e, p] != NO_BALLOT:
            return False
    last = e == state.elections - 1
    if last and state.phase == ELECTION:  # the vote is running: nothing is known yet
        return (_ballots_blank(state, e) and state.h_elected[e] == 0 and state.h_session[e] == 0
                and _session_blank(state, e) and state.h_policy[e] == UNSET and state.h_chaos[e] == 0
                and _power_blank(state, e))
    ja, nein = 0, 0
    for p in range(n):
        ja += state.h_ballot[e, p] == JA
        nein += state.h_ballot[e, p] == NEIN
    if (state.h_ballot[e, president] == NO_BALLOT or state.h_ballot[e, nominee] == NO_BALLOT
            or state.h_elected[e] != (1 if 2 * ja > ja + nein else 0)):
        return False
    if state.h_session[e] == 0:
        return _session_blank(state, e) and (state.h_policy[e] == UNSET) == (state.h_chaos[e] == 0) \
            and _power_blank(state, e)
    return state.h_elected[e] == 1 and _session_ok(state, e, last) and _claims_ok(state, e, last) \
        and _power_entry_ok(state, e, last)


@njit(cache=True)
def _ballots_blank(state, e):
    for p in range(MAX_PLAYERS):
        if state.h_ballot[e, p] != NO_BALLOT:
            return False
    return True


@njit(cache=True)
def _session_blank(state, e):
    return (state.h_veto[e] == 0 and state.h_pres_claim[e] == UNSET and state.h_chanc_claim[e] == UNSET
            and state.h_epoch[e] == -1 and state.h_drawn_lib[e] == UNSET and state.h_passed_lib[e] == UNSET
            and state.h_pres_discard[e] == UNSET and state.h_chanc_discard[e, 0] == UNSET
            and state.h_chanc_discard[e, 1] == UNSET)


@njit(cache=True)
def _power_blank(state, e):
    return state.h_power[e] == NO_POWER and state.h_target[e] == UNSET and state.h_power_claim[e] == UNSET


@njit(cache=True)
def _session_ok(state, e, last):
    """The cards of a session add up: drawn = passed + the president's discard, passed = the
    chancellor's discard + the enacted policy (both discarded on a veto)."""
    phase = state.phase
    if state.h_epoch[e] < 0 or state.h_epoch[e] > state.epoch or state.h_drawn_lib[e] < 0:
        return False
    drawn, passed = int(state.h_drawn_lib[e]), int(state.h_passed_lib[e])
    first, second = state.h_chanc_discard[e, 0], state.h_chanc_discard[e, 1]
    running = last and (phase == PRESIDENT_LEGISLATES or phase == CHANCELLOR_LEGISLATES or phase == VETO)
    if state.h_pres_discard[e] == UNSET:  # the president still holds the three
        return (running and phase == PRESIDENT_LEGISLATES and passed == UNSET and first == UNSET
                and second == UNSET and state.h_policy[e] == UNSET and state.h_veto[e] == 0)
    if passed != drawn - int(state.h_pres_discard[e] == LIBERAL) or not 0 <= passed <= 2:
        return False
    if first == UNSET:  # the chancellor still holds the two
        return (running and phase != PRESIDENT_LEGISLATES and second == UNSET and state.h_policy[e] == UNSET
                and (state.h_veto[e] == 2) == (state.veto_refused != 0))
    if running:
        return False
    if state.h_veto[e] == 1:  # both discarded; a policy now can only be chaos's
        return (second != UNSET and passed == int(first == LIBERAL) + int(second == LIBERAL)
                and (state.h_policy[e] == UNSET) == (state.h_chaos[e] == 0))
    return (second == UNSET and state.h_policy[e] != UNSET and state.h_chaos[e] == 0
            and passed == int(first == LIBERAL) + int(state.h_policy[e] == LIBERAL))


@njit(cache=True)
def _claims_ok(state, e, last):
    """Claims follow a finished session (when claims are played): the president's, then the chancellor's."""
    pres, chanc = int(state.h_pres_claim[e]), int(state.h_chanc_claim[e])
    if state.claims == 0 or state.h_chanc_discard[e, 0] == UNSET:
        return pres == UNSET and chanc == UNSET
    if not last:  # the game went on after the session, so both claimed
        return pres != UNSET and chanc != UNSET
    if state.phase == PRESIDENT_CLAIM or state.terminal != 0 and pres == UNSET:
        return pres == UNSET and chanc == UNSET  # (a session that ended the game has no claims)
    if state.phase == CHANCELLOR_CLAIM:
        return pres != UNSET and chanc == UNSET
    return pres != UNSET and chanc != UNSET


@njit(cache=True)
def _power_entry_ok(state, e, last):
    """A power's target and claim fit the power (which power it was, the replay checks)."""
    power, target, claim = int(state.h_power[e]), int(state.h_target[e]), int(state.h_power_claim[e])
    if power == NO_POWER:
        return target == UNSET and claim == UNSET
    if target == state.h_president[e] or target >= state.num_players:
        return False
    pending = last and state.terminal == 0 and _POWER_OF_PHASE[state.phase] == power
    if power == PEEK:  # no target; the claim while claims are played
        return target == UNSET and _power_claim_ok(state, claim, 4, pending and state.phase == PEEK_CLAIM)
    if target == UNSET:  # the president is choosing now
        return pending and state.phase != INVESTIGATION_CLAIM and claim == UNSET
    if power != INVESTIGATE or pending and state.phase == INVESTIGATION:
        return claim == UNSET and not pending
    return _power_claim_ok(state, claim, 2, pending)


@njit(cache=True)
def _power_claim_ok(state, claim, no_claim, waiting):
    if state.claims == 0 or waiting:
        return claim == UNSET
    return 0 <= claim <= no_claim


@njit(cache=True)
def _living_left_of(alive, seat, n):
    for k in range(1, n + 1):
        p = (seat + k) % n
        if alive[p] != 0:
            return p
    return -1


@njit(cache=True)
def _presidency_ok(state):
    """The presidency passes left among the living from the first president (a special election's
    choice in between), the rotation with it; exactly the players living at an election voted."""
    n = state.num_players
    alive = np.zeros(MAX_PLAYERS, np.int8)
    alive[:n] = 1
    rotation, special = int(state.president), -1  # for a game without elections yet
    for e in range(state.elections + 1):
        now = e == state.elections  # a president nominating now (not yet in the history)
        if now and (state.terminal != 0 or state.phase != NOMINATION):
            return state.terminal != 0 or state.rotation == rotation
        president = int(state.president) if now else int(state.h_president[e])
        if e == 0:
            rotation = president
        elif special >= 0:
            if president != special:
                return False
        else:
            rotation = _living_left_of(alive, rotation, n)
            if president != rotation:
                return False
        if now:
            return state.rotation == rotation
        if not (e == state.elections - 1 and state.phase == ELECTION):  # its ballots are public
            for p in range(n):
                if (state.h_ballot[e, p] != NO_BALLOT) != (alive[p] != 0):
                    return False
        target = int(state.h_target[e])
        special = target if state.h_power[e] == SPECIAL else -1
        if state.h_power[e] == EXECUTE and target >= 0:
            alive[target] = 0
    return True


@njit(cache=True)
def _replay(state):
    """Replay the history: the tracker, chaos, vetoes and powers must follow from it, the tracks
    and the public facts (executions, investigations, proven not Hitler, the last government) too."""
    n = state.num_players
    band = power_band(n)
    official = state.term_limits == TERM_LIMITS_OFFICIAL
    tracker, lib, fas, executions = 0, 0, 0, 0
    last_president, last_chancellor, last_session = -1, -1, -1
    cleared = np.zeros(MAX_PLAYERS, np.int8)
    alive = np.zeros(MAX_PLAYERS, np.int8)
    alive[:n] = 1
    investigator = np.full(MAX_PLAYERS, -1, np.int64)
    for e in range(state.elections):
        if lib == LIBERAL_WIN or fas == FASCIST_WIN:
            return BAD_REPLAY  # the game ended before this election
        president, nominee = int(state.h_president[e]), int(state.h_nominee[e])
        if limited_among(state.term_limits, alive, n, n - executions, president, last_president, last_chancellor,
                         nominee):
            return BAD_REPLAY  # the nominee was term-limited
        if e == state.elections - 1 and state.phase == ELECTION:
            break
        if state.h_veto[e] != 0 and fas < VETO_UNLOCK:
            return BAD_REPLAY
        if state.h_elected[e] != 0:
            if official:  # the last elected government is term-limited
                last_president, last_chancellor = president, nominee
            if fas >= HITLER_ZONE:
                if state.role[nominee] == HITLER:  # the fascists won: nothing more happened
                    if e != state.elections - 1 or state.h_session[e] != 0 or state.win_reason != HITLER_ELECTED:
                        return BAD_REPLAY
                    continue
                cleared[nominee] = 1
            if state.h_session[e] == 0:
                return BAD_REPLAY
            last_session = e
        elif state.h_session[e] != 0:
            return BAD_REPLAY
        policy = int(state.h_policy[e])
        if policy != UNSET and state.h_chaos[e] == 0:  # enacted by the government
            if not official:  # the government that enacted the last policy is term-limited
                last_president, last_chancellor = president, nominee
            tracker = 0
            if policy == LIBERAL:
                lib += 1
            else:
                fas += 1
            expected = POWERS[band, fas - 1] if policy == FASCIST and fas < FASCIST_WIN else NO_POWER
            pending = e == state.elections - 1 and (state.phase == PRESIDENT_CLAIM or state.phase == CHANCELLOR_CLAIM)
            if state.h_power[e] != expected and not (pending and state.h_power[e] == NO_POWER):
                return BAD_REPLAY
        elif state.h_power[e] != NO_POWER:
            return BAD_REPLAY
        elif state.h_elected[e] == 0 or state.h_veto[e] == 1:  # a failed election or a veto
            tracker += 1
            if (tracker == CHAOS) != (state.h_chaos[e] != 0):
                return BAD_REPLAY
            if tracker == CHAOS:
                tracker = 0
                last_president, last_chancellor = -1, -1  # term limits are forgotten
                if policy == LIBERAL:
                    lib += 1
                else:
                    fas += 1
        elif e != state.elections - 1 or state.phase == NOMINATION:
            return BAD_REPLAY  # a session without a policy or a veto is still running
        target = int(state.h_target[e])
        if target >= 0 and state.h_power[e] == EXECUTE:
            executions += 1
            alive[target] = 0
            cleared[target] = 1
            if state.alive[target] != 0:
                return BAD_FACTS
        elif target >= 0 and state.h_power[e] == INVESTIGATE:
            if investigator[target] >= 0:
                return BAD_REPLAY  # nobody is investigated twice
            investigator[target] = president
    if tracker != state.tracker or lib != state.liberal_enacted or fas != state.fascist_enacted:
        return BAD_REPLAY
    if (executions != n - state.living or last_session != state.last_session
            or last_president != state.last_president or last_chancellor != state.last_chancellor):
        return BAD_FACTS
    for p in range(n):
        if investigator[p] != state.investigator[p]:
            return BAD_FACTS
        if cleared[p] != state.cleared[p] and not (state.terminal != 0 and state.role[p] == HITLER):
            return BAD_FACTS
    return 0


@njit(cache=True)
def _epochs_ok(state):
    """Each epoch's policies: 3 a session, 1 a chaos enactment, and what is (or was) left of its
    deck; the next epoch's deck is that remainder with the epoch's discards."""
    if state.epoch_lib[0] != NUM_LIBERAL_POLICIES or state.epoch_fas[0] != NUM_FASCIST_POLICIES:
        return False
    if state.reshuffle == RESHUFFLE_AT_DRAW and not _reshuffles_at_draw_ok(state):
        return False
    previous = 0
    for e in range(state.elections):
        if state.h_session[e] != 0:
            if state.h_epoch[e] < previous:
                return False
            previous = state.h_epoch[e]
    for epoch in range(state.epoch + 1):
        lib = int(state.epoch_lib[epoch]) - int(state.epoch_chaos_lib[epoch])
        fas = int(state.epoch_fas[epoch]) - int(state.epoch_chaos_fas[epoch])
        discard_lib, discard_fas = 0, 0
        for e in range(state.elections):
            if state.h_session[e] == 0 or state.h_epoch[e] != epoch:
                continue
            lib -= state.h_drawn_lib[e]
            fas -= 3 - state.h_drawn_lib[e]
            for card in (state.h_pres_discard[e], state.h_chanc_discard[e, 0], state.h_chanc_discard[e, 1]):
                if card == LIBERAL:
                    discard_lib += 1
                elif card == FASCIST:
                    discard_fas += 1
        if epoch == state.epoch:  # what is left is the deck, the discards are the pile
            for i in range(state.deck_size):
                if state.deck[i] == LIBERAL:
                    lib -= 1
                else:
                    fas -= 1
            if lib != 0 or fas != 0 or discard_lib != state.discard_lib or discard_fas != state.discard_fas:
                return False
        elif (lib < 0 or fas < 0 or lib + fas != state.epoch_remainder[epoch]
              or state.epoch_lib[epoch + 1] != lib + discard_lib or state.epoch_fas[epoch + 1] != fas + discard_fas):
            return False
    for epoch in range(state.epoch + 1, MAX_EPOCHS):
        if (state.epoch_lib[epoch] != 0 or state.epoch_fas[epoch] != 0 or state.epoch_chaos_lib[epoch] != 0
                or state.epoch_chaos_fas[epoch] != 0 or state.epoch_remainder[epoch] != 0):
            return False
    if state.epoch_remainder[state.epoch] != 0:
        return False
    e = state.elections - 1
    if state.phase == PRESIDENT_LEGISLATES:
        return state.h_drawn_lib[e] == state.hand_lib
    if state.phase == CHANCELLOR_LEGISLATES or state.phase == VETO:
        return state.h_passed_lib[e] == state.hand_lib
    return True


@njit(cache=True)
def _reshuffles_at_draw_ok(state):
    """With reshuffle="at_draw" every reshuffle was made for something: a president's draw (the
    new epoch has a session), a chaos enactment from an empty deck (nothing was left of the old
    epoch's) or the peek."""
    for epoch in range(1, state.epoch + 1):
        if state.peek_epoch == epoch:
            continue
        if state.epoch_chaos_lib[epoch] + state.epoch_chaos_fas[epoch] > 0 and state.epoch_remainder[epoch - 1] == 0:
            continue
        drawn = False
        for e in range(state.elections):
            if state.h_session[e] != 0 and state.h_epoch[e] == epoch:
                drawn = True
        if not drawn:
            return False
    return True


@njit(cache=True)
def _peek_ok(state):
    """The peek: its election, the cards still on the deck, and where the others went."""
    peeks, peek_election = 0, -1
    for e in range(state.elections):
        if state.h_power[e] == PEEK:
            peeks += 1
            peek_election = e
    if state.peeker < 0:
        return (peeks == 0 and state.peek_epoch == -1 and state.peek_base == 0 and state.peek_session == -1
                and state.peek_rest == 0 and state.peek_cards[0] == UNSET and state.peek_cards[1] == UNSET
                and state.peek_cards[2] == UNSET)
    if (peeks != 1 or state.h_president[peek_election] != state.peeker or state.peek_epoch < 0
            or state.peek_epoch > state.epoch):
        return False
    for i in range(3):
        if state.peek_cards[i] == UNSET:
            return False
    left = peek_on_deck(state)
    rest = int(state.peek_rest)
    if left > 3 or left > 0 and (rest != 0 or state.peek_session != -1):
        return False
    for i in range(left):
        if state.peek_cards[3 - left + i] != state.deck[state.deck_size - 1 - i]:
            return False
    # The first peeked policies chaos took are the first chaos enactments after the peek.
    chaos = 3 - left - rest
    if chaos < 0:
        return False
    taken = 0
    for e in range(peek_election + 1, state.elections):
        if state.h_chaos[e] != 0 and taken < chaos:
            if state.h_policy[e] != state.peek_cards[taken]:
                return False
            taken += 1
    if taken != chaos:
        return False
    session = int(state.peek_session)
    if session >= 0:
        return (rest > 0 and session > peek_election and session < state.elections and state.h_session[session] != 0
                and state.h_epoch[session] == state.peek_epoch and _peek_fits(state))
    if rest > 0:  # a reshuffle took them back
        return state.epoch > state.peek_epoch and _peek_fits(state)
    return True


@njit(cache=True)
def _flags_ok(state):
    """The pending power, the veto flags and the claim phases fit the game."""
    phase = state.phase
    claim_phase = phase == PRESIDENT_CLAIM or phase == CHANCELLOR_CLAIM
    if (claim_phase or phase == INVESTIGATION_CLAIM or phase == PEEK_CLAIM) and state.claims == 0:
        return False
    e = state.elections - 1
    expected = NO_POWER  # a fascist policy's power waits for the claims
    if claim_phase and state.h_policy[e] == FASCIST and state.h_chaos[e] == 0:
        expected = POWERS[power_band(state.num_players), state.fascist_enacted - 1]
    if state.pending_power != expected:
        return False
    if state.pending_power == INVESTIGATE or phase == INVESTIGATION:
        if not _someone_to_investigate(state):
            return False
    early = phase == NOMINATION or phase == ELECTION or phase == PRESIDENT_LEGISLATES
    if early and state.veto_refused != 0:
        return False
    if not early and phase != GAME_OVER and (state.veto_refused != 0) != (state.h_veto[e] == 2):
        return False
    if phase == VETO:
        return state.fascist_enacted >= VETO_UNLOCK and state.veto_refused == 0
    return True


@njit(cache=True)
def _someone_to_investigate(state):
    for p in range(state.num_players):
        if p != state.president and state.alive[p] != 0 and state.investigator[p] < 0:
            return True
    return False


@njit(cache=True)
def _end_ok(state):
    n = state.num_players
    if state.terminal == 0:
        if state.winner != -1 or state.win_reason != NOT_OVER:
            return False
        for p in range(n):
            if state.reward[p] != 0.0:
                return False
        return state.liberal_enacted < LIBERAL_WIN and state.fascist_enacted < FASCIST_WIN
    reason = state.win_reason
    hitler_dead = state.alive[_hitler(state)] == 0
    if reason == LIBERAL_POLICIES:
        fits = state.liberal_enacted == LIBERAL_WIN and state.winner == LIBERAL
    elif reason == HITLER_EXECUTED:
        fits = hitler_dead and state.winner == LIBERAL
    elif reason == FASCIST_POLICIES:
        fits = state.fascist_enacted == FASCIST_WIN and state.winner == FASCIST
    elif reason == HITLER_ELECTED:
        e = state.elections - 1
        fits = (e >= 0 and state.h_elected[e] != 0 and state.role[state.h_nominee[e]] == HITLER
                and state.fascist_enacted >= HITLER_ZONE and state.winner == FASCIST)
    else:
        return False
    if not fits or hitler_dead != (reason == HITLER_EXECUTED):
        return False
    for p in range(MAX_PLAYERS):
        expected = 0.0 if p >= n else (1.0 if party_of(state.role[p]) == state.winner else -1.0)
        if state.reward[p] != expected:
            return False
    return True


# ---- playout value ------------------------------------------------------------------------------


@njit(cache=True)
def liberal_win_chance(liberal_enacted, fascist_enacted):
    """The chance that the liberal track fills first if every coming policy were drawn blind from
    those not yet enacted: P(5 - L liberal before 6 - F fascist), each liberal with the odds
    (6 - L) / (17 - L - F). It ignores Hitler's election and execution."""
    need_lib = LIBERAL_WIN - liberal_enacted
    need_fas = FASCIST_WIN - fascist_enacted
    q = (NUM_LIBERAL_POLICIES - liberal_enacted) / (DECK_CARDS - liberal_enacted - fascist_enacted)
    chance = 0.0
    term = q ** need_lib  # C(need_lib - 1 + k, k) q^need_lib (1 - q)^k, for k = 0, 1, ...
    for k in range(need_fas):
        chance += term
        term *= (need_lib + k) / (k + 1) * (1.0 - q)
    return chance


@njit(cache=True)
def playout_value(state, values):
    """Each seat's expected reward from the tracks: 2p - 1 for a liberal, 1 - 2p for a fascist, with
    p = :func:`liberal_win_chance`; 0 once the game is over (its rewards are paid)."""
    if state.terminal != 0:
        return
    p = liberal_win_chance(int(state.liberal_enacted), int(state.fascist_enacted))
    for seat in range(state.num_players):
        values[seat] = 2.0 * p - 1.0 if state.role[seat] == LIBERAL else 1.0 - 2.0 * p


register_engine(STATE, reset=reset, legal_mask=legal_mask, step=step, observe=observe, determinize=determinize,
                check_state=check_state, playout_value=playout_value)
