"""A rule-based Secret Hitler player for ``secret_hitler_v0``.

It reads only its seat's observation (at the game's ``Layout`` offsets), which holds the whole
game: it keeps no memory of its own. The strategy is one compiled function, :func:`choose_rows`
(agents/heuristic: the agent and the batched trainer's opponents both call it); its random
choices (tie noise, framing) come from a generator record. The strategy, by role:

**Liberal.** Keeps a suspicion score for every player from every election of the game: a fascist
policy enacted by a government blames its president and chancellor (less when both claimed a
forced hand: 3 fascists drawn, 2 received), a liberal policy clears them a little, players voting
ja on fascist governments a little; from the track records, claims that contradict each other
blame both, a claim the enacted policy refutes is blamed heavily, and so is being claimed fascist
by an investigator. Its own investigations, the lies it caught (with its own cards, its peek or
its own party) and a chancellor who threw away the liberal it passed are near certain. It
nominates and specially elects the least suspicious eligible player, votes ja when the government
looks clean (more readily when the tracker is at 2, much more strictly for an unproven chancellor
once 3 fascist policies are out: Hitler may win), always discards fascist policies, vetoes only
two fascists, claims the truth, investigates and executes the most suspicious.

**Fascist** (knows every role). Nominates Hitler once 3 fascist policies are out, otherwise a
teammate; votes ja for governments with a teammate (or Hitler as chancellor in the zone) and nein
for all-liberal ones; passes and enacts fascist policies; lies plausibly: after a fascist
enactment the president claims 3 fascists drawn and the chancellor 2 received, so the government
looks forced; reports investigated teammates as liberal and frames half the liberals it
investigates; executes the liberal the table trusts most; never vetoes.

**Hitler** plays liberal-looking: it votes, nominates and legislates like a liberal (enacting
liberal policies when it can, with true claims) to be trusted, votes ja on its own chancellorship
and those of teammates it knows (by default it knows none: the rulebook's Hitler does not know the
fascists), and only enacts the sixth, winning fascist policy. Term limits reach it only through
the legal mask (nominations) and the observation.
"""

import numpy as np
from numba import njit

from envs.core.rng import choice, uniform
from envs.secret_hitler import engine as E

from . import CompiledHeuristic, block_argmax

P = E.MAX_PLAYERS
F, L, HITLER = E.FASCIST, E.LIBERAL, E.HITLER
_O = {name: E.LAYOUT.offset(name) for name in E.LAYOUT.names}
O_SEAT, O_ROLE, O_KNOWN, O_TRACK, O_PHASE = (_O[n] for n in ("seat", "role", "known_roles", "fascist_track", "phase"))
O_VALID, O_PRESIDENTS, O_NOMINEES, O_JA = (_O[n] for n in ("hist_valid", "hist_president", "hist_nominee", "hist_ja"))
O_PRES_CLAIM, O_CHANC_CLAIM = _O["hist_president_claim"], _O["hist_chancellor_claim"]
O_POLICY, O_CHAOS, O_TARGETS = _O["hist_policy"], _O["hist_chaos"], _O["hist_target"]
O_FALSE, O_CONFLICTS, O_CLAIMED = _O["false_claims"], _O["claim_conflicts"], _O["claimed_party"]
O_LIES, O_DISCARDS, O_INVESTIGATION = _O["lies_seen"], _O["liberal_discards_seen"], _O["investigation"]
O_NOT_HITLER, O_PRESIDENT, O_NOMINEE, O_TRACKER = (_O[n] for n in ("not_hitler", "president", "nominee", "tracker"))
O_HAND, O_PASSED, O_DRAWN, O_PEEK = (_O[n] for n in ("hand", "passed", "drawn", "peek_seen"))
ROLES, PHASES, TRACK, TRACKER = (E.LAYOUT.shape(n)[-1] for n in ("role", "phase", "fascist_track", "tracker"))
PRES_CLAIMS, CHANC_CLAIMS = E.LAYOUT.shape("hist_president_claim")[1], E.LAYOUT.shape("hist_chancellor_claim")[1]
NO_PRES_CLAIM, NO_CHANC_CLAIM = 4, 3  # the claim blocks' "no claim" entries

#: Suspicion per unit of each track record (per fascist policy enacted, a government gets 1).
FALSE_CLAIM, CONFLICT, CLAIMED_FASCIST, CLAIMED_LIBERAL = 2.0, 1.0, 1.5, 1.0
LIE_SEEN, LIBERAL_DISCARD, INVESTIGATED = 6.0, 5.0, 10.0
# The observation is float32 and the Python agent summed float32 products; the same here keeps
# every threshold comparison (risk < 1.0 after five 0.2s) as it was.
JA_BLAME = np.float32(0.2)


@njit(cache=True)
def _one_hot(obs, offset, size):
    """The set entry of a one-hot block, -1 when none is set."""
    for k in range(size):
        if obs[offset + k] != 0:
            return block_argmax(obs, offset, size)
    return -1


@njit(cache=True)
def _claim(obs, offset, size, no_claim):
    k = _one_hot(obs, offset, size)
    return -1 if k == no_claim else k


@njit(cache=True)
def suspicion(obs, me, role, team):
    """Suspicion of each seat from the whole game's public record, plus private certainties."""
    s = np.zeros(P)
    for i in range(E.HISTORY):
        if obs[O_VALID + i] == 0:
            continue
        president, nominee = block_argmax(obs, O_PRESIDENTS + i * P, P), block_argmax(obs, O_NOMINEES + i * P, P)
        pres_claim = _claim(obs, O_PRES_CLAIM + i * PRES_CLAIMS, PRES_CLAIMS, NO_PRES_CLAIM)
        chanc_claim = _claim(obs, O_CHANC_CLAIM + i * CHANC_CLAIMS, CHANC_CLAIMS, NO_CHANC_CLAIM)
        policy = _one_hot(obs, O_POLICY + i * 2, 2)
        by_government = policy >= 0 and obs[O_CHAOS + i] == 0
        if by_government and policy == F:
            forced = pres_claim == 3 and chanc_claim == 2  # 3 fascists drawn, 2 received
            s[president] += 0.4 if forced else 1.0
            s[nominee] += 0.4 if forced or chanc_claim == 2 else 1.0
            for p in range(P):
                s[p] += JA_BLAME * obs[O_JA + i * P + p]
        elif by_government and policy == L:
            s[president] -= 0.5
            s[nominee] -= 0.5
    for p in range(P):
        s[p] += np.float32(FALSE_CLAIM) * obs[O_FALSE + p]  # e.g. "two liberals received" and a fascist enacted
        s[p] += np.float32(CONFLICT) * obs[O_CONFLICTS + p]  # one of the government lies about the cards passed
        s[p] += (np.float32(CLAIMED_FASCIST) * obs[O_CLAIMED + 2 * p + F]
                 - np.float32(CLAIMED_LIBERAL) * obs[O_CLAIMED + 2 * p + L])
        s[p] += np.float32(LIE_SEEN) * obs[O_LIES + p]  # caught with its own cards, its peek or its own party
        s[p] += np.float32(LIBERAL_DISCARD) * obs[O_DISCARDS + p]  # threw away a liberal it was passed
        s[p] += np.float32(INVESTIGATED) * (obs[O_INVESTIGATION + 2 * p + F] - obs[O_INVESTIGATION + 2 * p + L])
    if role == L or role == HITLER:
        s[me] = -100.0  # it trusts itself
    if role == HITLER:
        for p in range(P):
            if team[p] and p != me:
                s[p] -= 3.0  # a known teammate (only with hitler_knows_fascists True or "auto" at 5-6 players)
    return s


# Scores of a seat ``p`` for the seat-picking decisions (higher: picked).
SCORE_NOMINEE, SCORE_INVESTIGATE, SCORE_SPECIAL, SCORE_EXECUTE = range(4)


@njit(cache=True)
def _seat_score(kind, p, role, team, hitler, zone, s, obs, rng):
    fascist = role == F
    if kind == SCORE_NOMINEE:
        if fascist:
            if zone and p == hitler:
                return 100.0
            return (5.0 if team[p] and p != hitler else 0.0) - s[p]
        cleared = obs[O_NOT_HITLER + p] if zone else 0.0
        return 2.0 * cleared - s[p]
    if kind == SCORE_INVESTIGATE:
        if fascist:
            return 0.0 if team[p] else 1.0 + uniform(rng)
        return s[p]
    if kind == SCORE_SPECIAL:
        if fascist:
            return (10.0 if team[p] else 0.0) - s[p]
        return -s[p]
    if fascist:  # SCORE_EXECUTE: the liberal the table trusts most
        return -100.0 if team[p] else -s[p]
    if role == HITLER and team[p]:
        return -100.0
    return s[p]


@njit(cache=True)
def _seat_action(base, kind, mask, role, team, hitler, zone, s, obs, rng):
    """The legal action ``base + seat`` of the seat with the highest score (ties at random); -1 if
    none is legal."""
    best, best_value = -1, -np.inf
    for p in range(P):
        if mask[base + p]:
            value = _seat_score(kind, p, role, team, hitler, zone, s, obs, rng) + 1e-3 * uniform(rng)
            if value > best_value:
                best, best_value = p, value
    return base + best if best >= 0 else -1


@njit(cache=True)
def _vote_ja(obs, me, role, team, hitler, zone, s):
    president, nominee = block_argmax(obs, O_PRESIDENT, P), block_argmax(obs, O_NOMINEE, P)
    if me == president or me == nominee:
        return True
    tracker = block_argmax(obs, O_TRACKER, TRACKER)
    with_teammate = team[president] != 0 or team[nominee] != 0
    if role == F:
        if zone and nominee == hitler:
            return True
        return with_teammate or tracker == 2
    if role == HITLER and with_teammate:
        return True
    if zone and obs[O_NOT_HITLER + nominee] == 0 and s[nominee] > -0.4:
        return False  # an unproven chancellor might be Hitler
    risk = s[president] + s[nominee]
    return risk < (2.5 if tracker == 2 else 1.0)


@njit(cache=True)
def _discard(obs, role, fascists_enacted):
    liberals, fascists = int(obs[O_HAND + L]), int(obs[O_HAND + F])
    keep_liberal = role != F and not (role == HITLER and fascists_enacted == 5)
    if keep_liberal:
        return F if fascists else L
    return L if liberals else F


@njit(cache=True)
def _session_claim(obs, phase, role):
    president = phase == E.PRESIDENT_CLAIM
    truth = int(obs[O_DRAWN + F] if president else obs[O_PASSED + F])
    if role != F:
        return truth
    if obs[O_POLICY + F] > 0 and obs[O_CHAOS] == 0:  # the last row: a fascist policy enacted
        return 3 if president else 2  # "it was forced"
    return truth


@njit(cache=True)
def _investigation_claim(obs, role, team, rng):
    target = block_argmax(obs, O_TARGETS, P)
    truth = block_argmax(obs, O_INVESTIGATION + 2 * target, 2)
    if role != F:
        return truth
    if team[target]:
        return L
    return F if uniform(rng) < 0.5 else truth  # frames half the liberals it investigates


@njit(cache=True)
def who_is_who(obs, num_players):
    """The seat's own seat and role, which seats it knows are fascist (Hitler included) and
    Hitler's seat (-1 unknown)."""
    me, role = block_argmax(obs, O_SEAT, P), block_argmax(obs, O_ROLE, ROLES)
    team = np.zeros(P, np.int8)
    hitler = -1
    for p in range(num_players):
        fascist, is_hitler = obs[O_KNOWN + 3 * p + F] != 0, obs[O_KNOWN + 3 * p + HITLER] != 0
        team[p] = fascist or is_hitler
        if is_hitler and hitler < 0:
            hitler = p
    return me, role, team, hitler


@njit(cache=True)
def choose(obs, mask, num_players, rng):
    """The heuristic's action for one observation (see the module doc)."""
    me, role, team, hitler = who_is_who(obs, num_players)
    fascists_enacted = block_argmax(obs, O_TRACK, TRACK)
    zone = fascists_enacted >= E.HITLER_ZONE
    phase = block_argmax(obs, O_PHASE, PHASES)
    action = -1
    if phase == E.NOMINATION:
        s = suspicion(obs, me, role, team)
        action = _seat_action(E.NOMINATE, SCORE_NOMINEE, mask, role, team, hitler, zone, s, obs, rng)
    elif phase == E.ELECTION:
        s = suspicion(obs, me, role, team)
        action = E.VOTE_JA if _vote_ja(obs, me, role, team, hitler, zone, s) else E.VOTE_NEIN
    elif phase == E.PRESIDENT_LEGISLATES:
        action = E.PRESIDENT_DISCARD + _discard(obs, role, fascists_enacted)
    elif phase == E.CHANCELLOR_LEGISLATES:
        if role == L and obs[O_HAND + L] == 0 and mask[E.PROPOSE_VETO]:
            action = E.PROPOSE_VETO
        else:
            action = E.CHANCELLOR_DISCARD + _discard(obs, role, fascists_enacted)
    elif phase == E.VETO:
        consent = role == L and obs[O_PASSED + F] == 2  # vetoes only two fascists
        action = E.CONSENT_VETO if consent else E.REFUSE_VETO
    elif phase == E.PRESIDENT_CLAIM or phase == E.CHANCELLOR_CLAIM:
        action = E.CLAIM_FASCISTS + _session_claim(obs, phase, role)
    elif phase == E.INVESTIGATION_CLAIM:
        action = E.CLAIM_PARTY + _investigation_claim(obs, role, team, rng)
    elif phase == E.PEEK_CLAIM:
        peeked = 0
        for k in range(3):
            peeked += int(obs[O_PEEK + 2 * k + F])
        action = E.CLAIM_FASCISTS + peeked
    elif phase == E.INVESTIGATION or phase == E.SPECIAL_ELECTION or phase == E.EXECUTION:
        kind = SCORE_INVESTIGATE if phase == E.INVESTIGATION else (
            SCORE_SPECIAL if phase == E.SPECIAL_ELECTION else SCORE_EXECUTE)
        s = suspicion(obs, me, role, team)
        action = _seat_action(E.TARGET, kind, mask, role, team, hitler, zone, s, obs, rng)
    if action < 0 or action >= mask.shape[0] or not mask[action]:
        action = choice(rng, mask)
    return action


@njit(cache=True)
def choose_rows(obs, masks, rules, rngs, streams, out):
    """:func:`choose` for each row, drawing from generator ``rngs[streams[k]]`` (agents/heuristic:
    ``rules`` holds the number of players)."""
    for k in range(obs.shape[0]):
        out[k] = choose(obs[k], masks[k], rules[0], rngs[streams[k]])


class HeuristicAgent(CompiledHeuristic):
    """The strategy of the module doc, as an :class:`agents.base.Agent`."""

    choose_rows = staticmethod(choose_rows)

    def suspicion(self, observation):
        """The suspicion of each seat that this seat's decisions weigh, from ``observation``."""
        obs = np.ascontiguousarray(observation, np.float32)
        me, role, team, _ = who_is_who(obs, int(self._rules[0]))
        return suspicion(obs, me, role, team)
