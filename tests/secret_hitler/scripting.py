"""Scripted Secret Hitler games for the rule tests: chosen roles, deck order and first president,
then chosen actions (each checked against the legal mask first)."""

import numpy as np

from envs.secret_hitler import engine as E
from envs.secret_hitler.env import raw_env
from envs.testing import install_unchecked

L, F, HITLER = E.LIBERAL, E.FASCIST, E.HITLER


def standard_roles(n):
    """Seat 0 is Hitler, seats 1.. the ordinary fascists, the rest liberals."""
    fascists = E.fascists_without_hitler(n)
    return [HITLER] + [F] * fascists + [L] * (n - 1 - fascists)


class Script:
    """A game whose hidden facts the test chooses; ``rec`` is the live record (read it, or edit it
    and call nothing else: the env reads the same memory)."""

    def __init__(self, n=7, roles=None, deck="", president=0, liberal=0, fascist=0, seed=0, **options):
        """``liberal`` / ``fascist``: policies already on the tracks (taken out of the deck)."""
        self.n = n
        self.env = raw_env(num_players=n, **options)
        self.env.reset(seed=seed)
        self.rec = self.env._states[0]
        roles = standard_roles(n) if roles is None else roles
        assert len(roles) == n
        self.rec.role[:n] = roles
        self.rec.liberal_enacted = liberal
        self.rec.fascist_enacted = fascist
        self.rec.epoch_lib[0] = E.NUM_LIBERAL_POLICIES - liberal
        self.rec.epoch_fas[0] = E.NUM_FASCIST_POLICIES - fascist
        self.set_deck(deck)
        self.rec.rotation = president
        self.rec.president = president
        self.rec.current_player = president
        # Policies on the tracks with no election behind them are no record set_state accepts (its
        # check replays the history); the scenario edits the live record and installs it unchecked.
        install_unchecked(self.env, self.rec)

    def set_deck(self, top):
        """Order the whole deck: ``top`` (e.g. "FFL", the next card first), then the remaining
        policies not on the tracks, fascists first (so liberals lie deepest)."""
        top = [L if c == "L" else F for c in top.replace(" ", "")]
        libs = E.NUM_LIBERAL_POLICIES - self.rec.liberal_enacted - top.count(L)
        fas = E.NUM_FASCIST_POLICIES - self.rec.fascist_enacted - top.count(F)
        assert libs >= 0 and fas >= 0, "more of a kind than the deck holds"
        order = top + [F] * fas + [L] * libs  # draw order
        self.rec.deck[: len(order)] = order[::-1]
        self.rec.deck_size = len(order)

    def set_piles(self, top, discards):
        """Exactly ``top`` in the deck (next card first) and ``discards`` = (liberal, fascist) in
        the discard pile; every policy must be accounted for."""
        cards = [L if c == "L" else F for c in top.replace(" ", "")]
        libs = cards.count(L) + discards[0] + self.rec.liberal_enacted
        fas = cards.count(F) + discards[1] + self.rec.fascist_enacted
        assert (libs, fas) == (E.NUM_LIBERAL_POLICIES, E.NUM_FASCIST_POLICIES), (libs, fas)
        self.rec.deck[: len(cards)] = cards[::-1]
        self.rec.deck_size = len(cards)
        self.rec.discard_lib, self.rec.discard_fas = discards

    # ---- acting ------------------------------------------------------------------------------

    def legal(self, seat=None):
        seat = self.rec.current_player if seat is None else seat
        return self.env.legal_actions(f"player_{seat}")

    def act(self, action):
        assert action in self.legal(), (
            f"{self.env.action_to_str(action)} is not legal for player_{self.rec.current_player} "
            f"in phase {E.PHASE_NAMES[self.rec.phase]}; legal: {[self.env.action_to_str(a) for a in self.legal()]}")
        self.env.step(action)

    @property
    def to_act(self):
        return int(self.rec.current_player)

    @property
    def phase(self):
        return int(self.rec.phase)

    def living(self):
        return [p for p in range(self.n) if self.rec.alive[p]]

    def nominate(self, chancellor):
        assert self.phase == E.NOMINATION
        self.act(E.NOMINATE + chancellor)

    def vote(self, ja=None):
        """Every living player votes; ``ja`` is the set of seats voting ja (default: all)."""
        assert self.phase == E.ELECTION
        voters = set(self.living())
        while voters:
            seat = self.to_act
            voters.remove(seat)
            self.act(E.VOTE_JA if ja is None or seat in ja else E.VOTE_NEIN)

    def elect(self, chancellor, ja=None):
        self.nominate(chancellor)
        self.vote(ja)

    def fail(self, chancellor):
        """A nomination everybody rejects."""
        self.elect(chancellor, ja=set())

    def legislate(self, president_discards, chancellor_discards):
        assert self.phase == E.PRESIDENT_LEGISLATES
        self.act(E.PRESIDENT_DISCARD + president_discards)
        assert self.phase == E.CHANCELLOR_LEGISLATES
        self.act(E.CHANCELLOR_DISCARD + chancellor_discards)

    def claim(self, value=None):
        """One claim: a number of fascists (session or peek), a party after an investigation,
        or None for no claim."""
        if value is None:
            self.act(E.NO_CLAIM)
        elif self.phase == E.INVESTIGATION_CLAIM:
            self.act(E.CLAIM_PARTY + value)
        else:
            self.act(E.CLAIM_FASCISTS + value)

    def skip_claims(self):
        while self.phase in (E.PRESIDENT_CLAIM, E.CHANCELLOR_CLAIM, E.INVESTIGATION_CLAIM, E.PEEK_CLAIM):
            self.claim(None)

    def government(self, chancellor, president_discards, chancellor_discards):
        """Elect ``chancellor`` unanimously, legislate, skip the policy claims."""
        self.elect(chancellor)
        self.legislate(president_discards, chancellor_discards)
        while self.phase in (E.PRESIDENT_CLAIM, E.CHANCELLOR_CLAIM):
            self.claim(None)

    def target(self, seat):
        self.act(E.TARGET + seat)

    # ---- reading -----------------------------------------------------------------------------

    def obs(self, seat):
        return self.env.observe(f"player_{seat}")["observation"]

    def view(self, seat):
        return E.LAYOUT.views(self.obs(seat))

    def cards(self):
        """Every policy's place: (deck, discard, hand, enacted) as (liberal, fascist) pairs."""
        r = self.rec
        deck = r.deck[: r.deck_size]
        return ((int((deck == L).sum()), int((deck == F).sum())), (int(r.discard_lib), int(r.discard_fas)),
                (int(r.hand_lib), int(r.hand_fas)), (int(r.liberal_enacted), int(r.fascist_enacted)))

    def top(self, k=3):
        """The next ``k`` policies as a string, next first."""
        size = int(self.rec.deck_size)
        return "".join("LF"[c] for c in self.rec.deck[max(0, size - k): size][::-1])

    def rewards(self):
        return np.array([self.env.rewards[f"player_{p}"] for p in range(self.n)])

