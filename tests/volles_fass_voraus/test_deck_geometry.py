"""The observation's ``deck_geometry`` block: the seat's own deck, space by space, as the barrels'
corridors to the dock make it (engine.extractable). Spaces: 0-3 the row at the dock, 4-6 the next,
7-10, then 11-13; a barrel's corridor crosses the spaces of engine.BLOCKERS (e.g. 5's: 1 and 2)."""

import numpy as np

from .helpers import C, E, O, P, deck_of, load_deck, new_env, record

FREES, BURIES, BLOCKED, SHADOWS = E.GF_FREES, E.GF_BURIES, E.GF_BLOCKED, E.GF_SHADOWS


def geometry(deck):
    out = np.zeros(E.LAYOUT.size, np.float32)
    E.observe_deck_geometry(deck, E.extractable(deck), out)
    return E.LAYOUT.views(out)["deck_geometry"]


def test_the_block_names_its_features():
    assert E.DECK_GEOMETRY_NAMES == ("frees", "buries", "blocked", "shadows")
    assert E.LAYOUT.shape("deck_geometry") == (E.NUM_SPACES, E.DECK_GEOMETRY_FEATURES)


def test_the_corridors_are_those_of_the_rulebook_deck():
    assert [s for s in range(E.NUM_SPACES) if (E.BLOCKERS[5] >> s) & 1] == [1, 2]
    assert [s for s in range(E.NUM_SPACES) if (E.BLOCKERS[11] >> s) & 1] == [0, 1, 4, 7, 8]
    assert [s for s in range(E.NUM_SPACES) if (E.CROSSES[1] >> s) & 1] == [4, 5, 8, 11, 12]


def test_a_barrel_alone_in_the_way_frees_what_it_holds():
    g = geometry(deck_of((1, C), (4, P), (5, O)))  # 4 waits for 0 and 1, 5 for 1 and 2: only 1 is there
    assert g[1, FREES] == 2 and g[4, FREES] == 0 and g[5, FREES] == 0
    g = geometry(deck_of((0, P), (1, C), (4, O)))  # 4 waits for both 0 and 1: neither alone frees it
    assert not g[:, FREES].any()
    assert not g[[0, 1, 4], 1:].any()  # the other features are for empty spaces


def test_an_empty_space_shows_what_a_barrel_put_there_would_do():
    g = geometry(deck_of((4, P)))  # the purple on 4 is free
    assert g[1].tolist() == [0, 1, 0, 4]  # buries it; would cross 5, 8, 11, 12 (4 is taken)
    assert g[0].tolist() == [0, 1, 0, 2]  # buries it; would cross 7 and 11
    assert g[8].tolist() == [0, 0, 1, 2]  # would sit behind the purple: stuck; crosses 11, 12
    assert g[2].tolist() == [0, 0, 0, 5]  # out of the purple's way: crosses 5, 6, 9, 12, 13
    assert geometry(deck_of())[11].tolist() == [0, 0, 0, 0]  # the last row crosses nobody's way


def test_it_matches_extractable_on_random_decks():
    rng = np.random.default_rng(3)
    for _ in range(300):
        deck = np.where(rng.random(E.NUM_SPACES) < rng.random(), rng.integers(1, 4, E.NUM_SPACES), 0).astype(np.int8)
        free = E.extractable(deck)
        g = geometry(deck)
        for s in range(E.NUM_SPACES):
            other = deck.copy()
            other[s] = 0 if deck[s] else P
            after = E.extractable(other)
            if deck[s]:
                freed = [i for i in range(E.NUM_SPACES) if not (free >> i) & 1 and (after >> i) & 1]
                assert g[s, FREES] == len(freed)
            else:
                buried = [i for i in range(E.NUM_SPACES) if (free >> i) & 1 and not (after >> i) & 1]
                assert g[s, BURIES] == len(buried) and g[s, BLOCKED] == (not (after >> s) & 1)


def test_each_seat_sees_its_own_deck():
    env = new_env(3)
    state = record(env)
    load_deck(state, 0, deck_of((1, C), (4, P), (5, O)))
    views = [E.LAYOUT.views(env.observe(f"player_{seat}")["observation"]) for seat in range(3)]
    assert views[0]["deck_geometry"][1, FREES] == 2
    for seat in (1, 2):  # empty decks: every empty space crosses the spaces behind it, buries nothing
        assert not views[seat]["deck_geometry"][:, [FREES, BURIES, BLOCKED]].any()
        assert views[seat]["deck_geometry"][0, SHADOWS] == 3
