"""A rule-based Secret Hitler player for ``secret_hitler_v0``.

It reads only its seat's observation (through the game's ``Layout`` views), which holds the whole
game: it keeps no memory of its own. The strategy, by role:

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
and those of known teammates, and only enacts the sixth, winning fascist policy.
"""

import numpy as np

from envs.secret_hitler import engine as E

from .. import base

P = E.MAX_PLAYERS


class HeuristicAgent(base.Agent):
    name = "heuristic"
    #: Suspicion per unit of each track record (per fascist policy enacted, a government gets 1).
    EVIDENCE = {"false_claim": 2.0, "conflict": 1.0, "claimed_fascist": 1.5, "claimed_liberal": 1.0,
                "lie_seen": 6.0, "liberal_discard": 5.0, "investigated": 10.0}

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self.n = config["num_players"]

    # ---- reading the observation -------------------------------------------------------------

    def act(self, observation, action_mask, info=None):
        v = E.LAYOUT.views(observation)
        self.v, self.mask = v, action_mask
        self.me = int(v["seat"].argmax())
        self.role = int(v["role"].argmax())
        self.team = {p for p in range(self.n) if v["known_roles"][p, E.FASCIST] or v["known_roles"][p, E.HITLER]}
        self.hitler = next((p for p in range(self.n) if v["known_roles"][p, E.HITLER]), None)
        self.alive = v["alive"][: self.n] > 0
        self.fascists_enacted = int(v["fascist_track"].argmax())
        self.zone = self.fascists_enacted >= E.HITLER_ZONE
        self._suspicion_now = None
        phase = int(v["phase"].argmax())
        action = self._choose(phase)
        if action is None or not action_mask[action]:
            legal = np.flatnonzero(action_mask)
            action = int(legal[self.rng.integers(legal.size)])
        return int(action)

    @property
    def suspicion(self):
        """This decision's suspicion of each seat, worked out only when the decision needs it
        (legislating and claiming do not: they are most of the calls)."""
        if self._suspicion_now is None:
            self._suspicion_now = self._suspicion()
        return self._suspicion_now

    @property
    def liberal_minded(self):
        """Liberals, and Hitler posing as one."""
        return self.role != E.FASCIST

    def _rows(self):
        v = self.v
        for i in range(E.HISTORY):
            if v["hist_valid"][i]:
                yield i

    @staticmethod
    def _claim(one_hot, no_claim):
        k = int(one_hot.argmax()) if one_hot.any() else -1
        return None if k < 0 or k == no_claim else k

    def _suspicion(self):
        """Suspicion of each seat from the whole game's public record, plus private certainties."""
        v = self.v
        s = np.zeros(P)
        for i in self._rows():
            president, nominee = int(v["hist_president"][i].argmax()), int(v["hist_nominee"][i].argmax())
            pres_claim = self._claim(v["hist_president_claim"][i], 4)
            chanc_claim = self._claim(v["hist_chancellor_claim"][i], 3)
            policy = int(v["hist_policy"][i].argmax()) if v["hist_policy"][i].any() else None
            by_government = policy is not None and not v["hist_chaos"][i]
            if by_government and policy == E.FASCIST:
                forced = pres_claim == 3 and chanc_claim == 2
                s[president] += 0.4 if forced else 1.0
                s[nominee] += 0.4 if forced or chanc_claim == 2 else 1.0
                s += 0.2 * v["hist_ja"][i]
            elif by_government and policy == E.LIBERAL:
                s[president] -= 0.5
                s[nominee] -= 0.5
        w = self.EVIDENCE
        s += w["false_claim"] * v["false_claims"]  # e.g. "two liberals received" and a fascist enacted
        s += w["conflict"] * v["claim_conflicts"]  # one of the government lies about the cards passed
        s += w["claimed_fascist"] * v["claimed_party"][:, E.FASCIST] - w["claimed_liberal"] * v["claimed_party"][:, E.LIBERAL]
        s += w["lie_seen"] * v["lies_seen"]  # lies it caught with its own cards, its peek or its own party
        s += w["liberal_discard"] * v["liberal_discards_seen"]  # a chancellor who threw away a liberal it passed
        s += w["investigated"] * (v["investigation"][:, E.FASCIST] - v["investigation"][:, E.LIBERAL])
        if self.role == E.LIBERAL or self.role == E.HITLER:
            s[self.me] = -100.0  # it trusts itself
        if self.role == E.HITLER:
            for p in self.team - {self.me}:
                s[p] -= 3.0  # a known teammate (5-6 players)
        return s

    # ---- decisions ---------------------------------------------------------------------------

    def _choose(self, phase):
        if phase == E.NOMINATION:
            return E.NOMINATE + self._pick(range(E.NOMINATE, E.NOMINATE + P), self._nominee_score)
        if phase == E.ELECTION:
            return E.VOTE_JA if self._vote_ja() else E.VOTE_NEIN
        if phase == E.PRESIDENT_LEGISLATES:
            return E.PRESIDENT_DISCARD + self._discard()
        if phase == E.CHANCELLOR_LEGISLATES:
            return self._chancellor()
        if phase == E.VETO:
            passed_fascists = self.v["passed"][E.FASCIST]
            consent = self.role == E.LIBERAL and passed_fascists == 2
            return E.CONSENT_VETO if consent else E.REFUSE_VETO
        if phase in (E.PRESIDENT_CLAIM, E.CHANCELLOR_CLAIM):
            return E.CLAIM_FASCISTS + self._session_claim(phase)
        if phase == E.INVESTIGATION_CLAIM:
            return E.CLAIM_PARTY + self._investigation_claim()
        if phase == E.PEEK_CLAIM:
            return E.CLAIM_FASCISTS + int(self.v["peek_seen"][:, E.FASCIST].sum())
        if phase == E.INVESTIGATION:
            return E.TARGET + self._pick(range(E.TARGET, E.TARGET + P), self._investigate_score)
        if phase == E.SPECIAL_ELECTION:
            return E.TARGET + self._pick(range(E.TARGET, E.TARGET + P), self._special_score)
        if phase == E.EXECUTION:
            return E.TARGET + self._pick(range(E.TARGET, E.TARGET + P), self._execute_score)
        return None

    def _pick(self, actions, score):
        """The seat with the highest ``score`` among the legal ``actions`` (ties at random)."""
        best, best_value = None, -np.inf
        for offset, action in enumerate(actions):
            if self.mask[action]:
                value = score(offset) + 1e-3 * self.rng.random()
                if value > best_value:
                    best, best_value = offset, value
        return best

    def _nominee_score(self, p):
        if self.role == E.FASCIST:
            if self.zone and p == self.hitler:
                return 100.0
            bonus = 5.0 if p in self.team and p != self.hitler else 0.0
            return bonus - self.suspicion[p]
        cleared = self.v["not_hitler"][p] if self.zone else 0.0
        return 2.0 * cleared - self.suspicion[p]

    def _vote_ja(self):
        v = self.v
        president, nominee = int(v["president"].argmax()), int(v["nominee"].argmax())
        if self.me in (president, nominee):
            return True
        tracker = int(v["tracker"].argmax())
        if self.role == E.FASCIST:
            if self.zone and nominee == self.hitler:
                return True
            return bool({president, nominee} & self.team) or tracker == 2
        if self.role == E.HITLER and {president, nominee} & self.team:
            return True
        if self.zone and not v["not_hitler"][nominee] and self.suspicion[nominee] > -0.4:
            return False  # an unproven chancellor might be Hitler
        risk = self.suspicion[president] + self.suspicion[nominee]
        return risk < (2.5 if tracker == 2 else 1.0)

    def _hand(self):
        return int(self.v["hand"][E.LIBERAL]), int(self.v["hand"][E.FASCIST])

    def _discard(self):
        liberals, fascists = self._hand()
        keep_liberal = self.liberal_minded and not (self.role == E.HITLER and self.fascists_enacted == 5)
        if keep_liberal:
            return E.FASCIST if fascists else E.LIBERAL
        return E.LIBERAL if liberals else E.FASCIST

    def _chancellor(self):
        liberals, fascists = self._hand()
        if self.role == E.LIBERAL and liberals == 0 and self.mask[E.PROPOSE_VETO]:
            return E.PROPOSE_VETO
        return E.CHANCELLOR_DISCARD + self._discard()

    def _session_claim(self, phase):
        v = self.v
        president = phase == E.PRESIDENT_CLAIM
        truth = int(v["drawn"][E.FASCIST] if president else v["passed"][E.FASCIST])
        if self.role != E.FASCIST:
            return truth
        enacted_fascist = v["hist_policy"][0, E.FASCIST] > 0 and not v["hist_chaos"][0]
        if enacted_fascist:
            return 3 if president else 2  # "it was forced"
        return truth

    def _investigation_claim(self):
        v = self.v
        target = int(v["hist_target"][0].argmax())
        truth = int(v["investigation"][target].argmax())
        if self.role != E.FASCIST:
            return truth
        if target in self.team:
            return E.LIBERAL
        return E.FASCIST if self.rng.random() < 0.5 else truth

    def _investigate_score(self, p):
        if self.role == E.FASCIST:
            return 0.0 if p in self.team else 1.0 + self.rng.random()
        return self.suspicion[p]

    def _special_score(self, p):
        if self.role == E.FASCIST:
            return (10.0 if p in self.team else 0.0) - self.suspicion[p]
        return -self.suspicion[p]

    def _execute_score(self, p):
        if self.role == E.FASCIST:
            return -100.0 if p in self.team else -self.suspicion[p]
        if self.role == E.HITLER and p in self.team:
            return -100.0
        return self.suspicion[p]
