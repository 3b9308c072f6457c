"""Pictures of a Secret Hitler table: ``ansi`` text and an ``rgb`` image.

``viewer`` limits the text to what that seat knows (its role, the roles its role reveals, its
investigations, its cards); without a viewer everything is shown, roles and deck included.
"""

import numpy as np

from envs.core.render import COLOURS, Canvas

from . import engine as E

ROLE_NAMES = ("liberal", "fascist", "Hitler")
POLICY_LETTERS = "LF"
POWER_SHORT = {E.NO_POWER: "-", E.INVESTIGATE: "investigate", E.SPECIAL: "special election",
               E.PEEK: "peek", E.EXECUTE: "execution"}


def _name(seat):
    return f"player_{int(seat)}"


def _known_role(state, seat, viewer):
    """The role of ``seat`` as ``viewer`` knows it: a role name, a party, or None."""
    if viewer is None or seat == viewer:
        return ROLE_NAMES[state.role[seat]]
    if E.knows_all_roles(state, viewer):
        return ROLE_NAMES[state.role[seat]]
    if state.investigator[seat] == viewer:
        return "liberal party" if state.role[seat] == E.LIBERAL else "fascist party"
    return None


def _holder(state):
    """The seat holding the session's policies, or None."""
    if state.phase == E.PRESIDENT_LEGISLATES:
        return int(state.president)
    if state.phase in (E.CHANCELLOR_LEGISLATES, E.VETO):
        return int(state.chancellor)
    return None


def _powers(state):
    band = E.power_band(int(state.num_players))
    return [POWER_SHORT[int(p)] for p in E.POWERS[band]]


def _entry_text(state, e):
    president, nominee = int(state.h_president[e]), int(state.h_nominee[e])
    text = f"#{e + 1} {_name(president)} nominates {_name(nominee)}"
    ballots = state.h_ballot[e, : state.num_players]
    if (ballots != E.NO_BALLOT).any():
        ja = [str(p) for p in np.flatnonzero(ballots == E.JA)]
        nein = [str(p) for p in np.flatnonzero(ballots == E.NEIN)]
        text += f": ja {' '.join(ja) or '-'} / nein {' '.join(nein) or '-'}"
        text += ", elected" if state.h_elected[e] else ", rejected"
    if state.h_veto[e] == 1:
        text += ", vetoed"
    elif state.h_veto[e] == 2:
        text += ", veto refused"
    if state.h_policy[e] >= 0:
        kind = "top policy (chaos)" if state.h_chaos[e] else "enacted"
        text += f", {kind} {ROLE_NAMES[state.h_policy[e]]}"
    claims = []
    if state.h_pres_claim[e] >= 0:
        claims.append("P " + ("no claim" if state.h_pres_claim[e] == 4 else f"{state.h_pres_claim[e]}F"))
    if state.h_chanc_claim[e] >= 0:
        claims.append("C " + ("no claim" if state.h_chanc_claim[e] == 3 else f"{state.h_chanc_claim[e]}F"))
    if claims:
        text += f" (claims {', '.join(claims)})"
    power = int(state.h_power[e])
    if power >= 0:
        text += f", {POWER_SHORT[power]}"
        if state.h_target[e] >= 0:
            text += f" {_name(state.h_target[e])}"
        claim = int(state.h_power_claim[e])
        if claim >= 0 and power == E.INVESTIGATE:
            text += " (claims " + ("no claim" if claim == 2 else ROLE_NAMES[claim]) + ")"
        elif claim >= 0:
            text += " (claims " + ("no claim" if claim == 4 else f"{claim}F") + ")"
    return text


def ansi(state, config, viewer=None, history=6):
    n = int(state.num_players)
    lines = [f"Secret Hitler, {n} players - phase: {E.PHASE_NAMES[state.phase]}"
             + (f" - to act: {_name(state.current_player)}" if state.current_player >= 0 else "")]
    if state.terminal:
        reasons = {E.LIBERAL_POLICIES: "five liberal policies", E.HITLER_EXECUTED: "Hitler was executed",
                   E.FASCIST_POLICIES: "six fascist policies", E.HITLER_ELECTED: "Hitler was elected chancellor"}
        lines.append(f"{ROLE_NAMES[state.winner].upper()}S WIN: {reasons.get(int(state.win_reason), '?')}")
    lib = "L" * state.liberal_enacted + "." * (E.LIBERAL_WIN - state.liberal_enacted)
    fas = "F" * state.fascist_enacted + "." * (E.FASCIST_WIN - state.fascist_enacted)
    lines.append(f"Liberal track [{lib}]   Fascist track [{fas}]  powers: {', '.join(_powers(state))}")
    veto = " - veto unlocked" if state.fascist_enacted >= E.VETO_UNLOCK else ""
    lines.append(f"Election tracker {state.tracker}/3 - deck {state.deck_size} - "
                 f"discard {state.discard_lib + state.discard_fas}{veto}")
    if viewer is None:
        top = "".join(POLICY_LETTERS[c] for c in state.deck[: state.deck_size][::-1])
        lines.append(f"Deck from the top: {top}")
    lines.append("Players:")
    for seat in range(n):
        offices = []
        if not state.terminal:
            if seat == state.president:
                offices.append("PRESIDENT")
            if seat == state.chancellor:
                offices.append("CHANCELLOR")
            elif seat == state.nominee:
                offices.append("nominee")
        if state.alive[seat] and E.term_limited(state, seat):  # the engine's rule, not a copy
            offices.append("term-limited")
        if state.cleared[seat]:
            offices.append("not Hitler")
        role = _known_role(state, seat, viewer) or "?"
        you = " (you)" if seat == viewer else ""
        alive = "alive" if state.alive[seat] else "EXECUTED"
        lines.append(f"  {_name(seat):9s}{you:6s} {role:14s} {alive:8s} {' '.join(offices)}")
    holder = _holder(state)
    if holder is not None and viewer in (None, holder):
        lines.append(f"{_name(holder)} holds {state.hand_lib} liberal, {state.hand_fas} fascist")
    if state.peeker >= 0 and (viewer is None or viewer == state.peeker):
        seen = "".join(POLICY_LETTERS[card] for card in state.peek_cards)
        lines.append(f"{_name(state.peeker)} peeked: {seen} (next first; {E.peek_on_deck(state)} still on the deck)")
    if state.elections:
        lines.append("History:")
        for e in range(max(0, state.elections - history), state.elections):
            lines.append("  " + _entry_text(state, e))
    return "\n".join(lines)


ROLE_COLOURS = {"liberal": COLOURS["blue"], "fascist": COLOURS["red"], "Hitler": (110, 20, 20),
                "liberal party": COLOURS["blue"], "fascist party": COLOURS["red"]}


def rgb(state, config, viewer=None):
    n = int(state.num_players)
    canvas = Canvas(900, 430)
    canvas.text(20, 12, f"Secret Hitler - {E.PHASE_NAMES[state.phase]}", size=20)
    # The two tracks.
    for i in range(E.LIBERAL_WIN):
        filled = i < state.liberal_enacted
        canvas.rect(20 + i * 70, 50, 60, 80, fill=COLOURS["blue"] if filled else COLOURS["white"],
                    outline=COLOURS["blue"], width=2)
    powers = _powers(state)
    for i in range(E.FASCIST_WIN):
        filled = i < state.fascist_enacted
        x = 400 + i * 80
        canvas.rect(x, 50, 70, 80, fill=COLOURS["red"] if filled else COLOURS["white"],
                    outline=COLOURS["red"], width=2)
        label = powers[i] if i < len(powers) else "win"
        canvas.text(x + 35, 135, label[:11], size=10, anchor="ma")
    # The election tracker.
    canvas.text(20, 150, "tracker", size=12)
    for i in range(3):
        canvas.circle(100 + i * 30, 157, 10, fill=COLOURS["yellow"] if i < state.tracker else None)
    canvas.text(220, 150, f"deck {state.deck_size}   discard {state.discard_lib + state.discard_fas}", size=12)
    # The players.
    width = 860 / n
    for seat in range(n):
        x = 20 + seat * width
        role = _known_role(state, seat, viewer)
        fill = ROLE_COLOURS.get(role, COLOURS["grey"])
        canvas.rect(x, 190, width - 10, 90, fill=fill)
        canvas.text(x + 5, 195, _name(seat), size=12, fill=COLOURS["white"])
        canvas.text(x + 5, 212, role or "?", size=12, fill=COLOURS["white"])
        if not state.terminal and seat == state.president:
            canvas.text(x + 5, 235, "PRESIDENT", size=11, fill=COLOURS["white"])
        if not state.terminal and (seat == state.chancellor or seat == state.nominee):
            label = "CHANCELLOR" if seat == state.chancellor else "nominee"
            canvas.text(x + 5, 250, label, size=11, fill=COLOURS["white"])
        if not state.alive[seat]:
            canvas.line([(x, 190), (x + width - 10, 280)], fill=COLOURS["black"], width=4)
    # The latest elections.
    y = 300
    for e in range(max(0, state.elections - 6), state.elections):
        canvas.text(20, y, _entry_text(state, e)[:130], size=11)
        y += 20
    return canvas.array()
