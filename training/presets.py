"""Per-game training presets: what each game needs from MaskablePPO, in one place.

``python -m training.selfplay <env_id>`` starts from ``PRESETS[env_id]``; any flag given on the
command line overrides the preset's value. ``env_config`` holds options passed to the env: shaping
rewards for training only (evaluation always plays the real game and counts its wins), and options
that change the observation (``Option.observation``) for training and evaluation alike.

The opponent pool (``pool_weights``: odds of a random player, the heuristic agent and a frozen
snapshot of the learner in each opponent seat) is part of the preset: the heuristic is the
opponent a policy is measured against. Where its strategy is compiled (Secret Hitler, Volle Socke,
Volles Fass voraus, Teufel Teufel: a few us a decision, one call per wave) it costs batched
training little; Voll auf die 18's is Python, a call per decision
(benchmarks/results/training_speed.md).

Every game that has a heuristic starts warm (``imitation_samples``, ``imitation_epochs``): the
policy first clones 200k of the heuristic's decisions, in three DAgger rounds (training/imitation.py),
and PPO improves from there, where PPO from random weights spent 20-95 minutes of this CPU without
reaching the heuristic. All squash the observation with symlog before the first layer
(``obs_squash``, training/networks.py): counts and scores up to a few thousand sit beside 0/1 flags,
and the squash took the cloned Volle Socke policy's agreement with its teacher from 0.78 to 0.92
(100k decisions, 6 epochs).

Why these values (the reasoning; what they reach is measured in benchmarks/results/learning.md):

- ``secret_hitler_v0``: short games (~25 learner decisions) with a delayed, team-wide outcome:
  gamma 0.99 is plenty for 25 decisions. Nominating, investigating, choosing and executing pick a
  player, scored from each player's rows by the pointer head: 25 minutes with it won 0.560 of 400
  and 0.580 of 1,200 further 5-player games against heuristic agents, where a heuristic agent wins
  0.500 and 0.491 (the flat head: 0.500 and 0.542). Holding PPO near its clone
  (``anchor_coef`` 0.2 and 1.0, training/anchor.py) measured no better than the clone itself
  after 0.58 M steps (0.48), so ``anchor_coef`` stays 0. (From random weights it trained with
  more entropy, 0.02, to keep a hidden-role policy from settling early on one way to vote; a warm
  start begins from the heuristic's ways instead.)
- ``teufel_teufel_v0``: long games (hundreds of decisions a seat), so a win at the end is far from
  most choices: gamma close to 1 and the env's ``letter_reward`` shaping (a reward for each
  letter gained, taken back when one is lost) to give the policy a signal long before the end.
  Nearly every decision picks one of the 49 squares, so the policy scores squares with one shared
  pointer head (``policy_head="pointer"``): cloning the same 200k heuristic decisions for 10
  epochs, agreement with the heuristic on new games rose from 0.41 (flat head) to 0.55, and the
  clone's win rate against heuristic agents (200 games) from 0.015 to 0.235. Its scorer also
  reads each square's neighbours (two rings): 0.275 against 0.235 for the same clone, 0.268
  against 0.240 for a 25-minute run, though cloning then costs twice as long.
- ``volle_socke_v0``: ten rounds of a card game; ``round_rewards`` (the env's per-round score
  shaping) carries the signal of each round.
- ``volles_fass_voraus_v0``: doubloons are the score; ``doubloon_shaping`` pays each doubloon
  gained as it is gained. The berth in the harbour ahead carries the heuristic's strength (a
  heuristic choosing berths at random wins 0 of 1,000 games against heuristic agents, where it
  wins 0.291), and the clones chose it badly (0.59 agreement) while no fixed rows of the
  observation held the harbour ahead. With the observation's ``ahead`` block (that harbour berth by
  berth) the same cloning test (200k decisions, 5 epochs) agrees 0.888 with the heuristic on new
  games (berths 0.916) and wins 0.145 / 0.185 (sampled / argmax, 200 games) against heuristic
  agents, where the flat head over the old observation agreed 0.762 and won 0.000 / 0.020, and
  the flat head over the new one 0.873 and 0.115 / 0.180. So it takes the pointer head over
  berths, deck spaces and sailor cards: 25 minutes with it won 0.237 of 400 games against
  heuristic agents, where a heuristic agent wins 0.263 (before the block: 0.000 against 0.293).
  The deck-space rows read the ``deck_geometry`` block too (which barrels a barrel keeps stuck,
  what a barrel put on an empty space would block), and each ``ahead`` row the seat's own terms
  there (its sailors' arrival pay, hazards they cancel, plaza pay; barrels it could load): the same
  cloning test agrees 0.920 (berths 0.952, unloading 0.905, placement 0.811) and wins 0.207 /
  0.222 of 2,000 games (was 0.149 / 0.175; the deck block alone 0.160 / 0.194). Its 25-minute run
  wins 0.315 [0.29, 0.34] of 1,000 games against heuristic agents, where a heuristic agent wins
  0.245 [0.22, 0.27] on the same seeds (benchmarks/results/learning.md).
- ``voll_auf_die_18_v0``: one shared policy plays every seat of the cooperative team;
  ``reward_shaping`` pays progress (Nazis convinced) toward the chapter's goal, and
  ``observe_hints`` puts the argument search's team argumentation into the observation (which
  cards of mine, at which Nazi, complete an exact sum with my team-mates'): a subset-sum question
  the network did not learn from the hands. Cloning 120k heuristic decisions (both seats, 2
  players, 5 epochs) and testing on 20k new ones: where the heuristic argues, the clone lays the
  same cards at the same Nazi in 0.270 of the positions over the old observation, 0.962 over the
  new one (flat head) and 0.984 with the pointer head over the argue actions, which the preset
  uses. The clones' teams still won 0 of 200 games (the heuristic team 0.180): they now argue as
  the heuristic does, but not trade (Bib swaps, offers: argmax waits where the heuristic swaps),
  call the emergency redraw or withdraw; the same clone with the heuristic making just those
  choices won 12 of 40 (the old-observation clone with the same help: 0 of 40).
  ``observe_hints`` also scores every legal offer, accept and Bib swap (how many more Nazis the
  team can then convince; pointer groups over those actions): the same cloning test then agreed
  0.724 (trades: 0.257, before 0.092) and its team won 0.100 of 200 games sampled (argmax 0.000),
  at 69 us a view instead of 3.5 us then; since the exchange hints read bit tables of the reachable
  sums, 7.4 us at 2 players (benchmarks/results/voll_auf_die_18_views.md).

``env_config`` options that change what a seat observes (``Option.observation``: ``observe_hints``)
are kept in evaluation too (training.selfplay), unlike the shaping ones.
"""

from envs.secret_hitler.engine import NOMINATE, TARGET
from envs.teufel_teufel.data import NEIGHBOURS
from envs.voll_auf_die_18.engine import A_ACCEPT, A_ARGUE, A_BIB, A_OFFER
from envs.volles_fass_voraus.engine import A_BERTH, A_SAILOR, A_SPACE

#: What Secret Hitler's observation says about each player (rows by absolute seat), for the actions
#: naming one.
SECRET_HITLER_PLAYER = ("seat", "in_game", "known_roles", "investigation", "alive", "not_hitler", "investigated",
                        "president", "nominee", "chancellor", "next_president", "term_limited", "to_act",
                        ("hist_president", 1), ("hist_nominee", 1), ("hist_ja", 1), ("hist_nein", 1),
                        ("hist_target", 1), "sessions", "enacted_by", "ja_for", "claim_conflicts", "false_claims")

#: Actions that pick one of a row of like things, for the pointer head (``policy_head="pointer"``,
#: training/networks.py): ``(first action, observation views)`` per group; each view is split into
#: one row per thing along its first axis, or along the axis given as ``(view, axis)``. A third
#: element names each thing's neighbours (squares of a board), whose mean rows the scorer reads too.
#: (Their counts against the actions: tests/training/test_networks.py.)
ACTION_ENTITIES = {
    # nominate a chancellor / investigate, choose, execute a player: that player's public record and
    # what this seat knows of them
    "secret_hitler_v0": [(NOMINATE, SECRET_HITLER_PLAYER), (TARGET, SECRET_HITLER_PLAYER)],
    # move to / place on / swap / peek at a square: what the seat knows of its card, who stands there,
    # and the same around it (its orthogonal neighbours, two rings)
    "teufel_teufel_v0": [(0, ("squares", "cards", "certain", ("peeked", 1), ("discs", 1), "selected",
                              "move_from", "move_turned"),
                          [[int(j) for j in around if j >= 0] for around in NEIGHBOURS])],
    # a berth of the harbour ahead: what it offers, who lies there, whether it is affordable and your deck
    # can unload there; a deck space (place / unload / lose its barrel): its barrel on every ship, and
    # whether it comes off; a sailor card: who holds it, whether it is boxed, used, chosen in storm chaos
    "volles_fass_voraus_v0": [(A_BERTH, ("ahead",)),
                              (A_SPACE, (("decks", 1), ("extractable", 1), "deck_geometry")),
                              (A_SAILOR, (("sailors", 1), "sailors_boxed", "sailor_uses", "chaos_take",
                                          "chaos_given"))],
    # argue with a subset of the hand at a Nazi slot: whether it is this seat's part of the team
    # argumentation the search finds (the observe_hints block, one entry per argue action); offer,
    # accept, swap with the Bib: how many more Nazis the team can then convince (observe_hints too)
    "voll_auf_die_18_v0": [(A_ARGUE, ("hint_argue",)), (A_OFFER, ("hint_offer",)), (A_ACCEPT, ("hint_accept",)),
                           (A_BIB, ("hint_bib",))],
}

#: The opponent pool's odds of a random player, the heuristic agent and a frozen snapshot of the
#: learner in each opponent seat (snapshots count once there are some).
DEFAULT_POOL_WEIGHTS = (0.3, 0.3, 0.4)

COMMON = {
    "net_arch": [256, 256],
    "shared_layers": 1,      # the wide first layer is shared by policy and value (training/networks.py)
    "obs_squash": "symlog",  # counts and scores squashed before the first layer (training/networks.py)
    "n_steps": 128,          # per sub-env; x num_envs (64) = 8192 samples per update
    "batch_size": 1024,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "gamma": 0.995,
    "gae_lambda": 0.95,
    "ent_coef": 0.01,
    "pool_weights": DEFAULT_POOL_WEIGHTS,
    "imitation_samples": 0,  # games without a heuristic start from random weights
    "imitation_epochs": 0,
    "policy_head": "flat",   # "pointer": score ACTION_ENTITIES' actions with one shared function (networks.py)
    "anchor_coef": 0.0,      # > 0: a KL term holding PPO near the cloned policy (training/anchor.py)
    "env_config": {},
}

#: The warm start of every game that has a heuristic: clone this many of its decisions first, then
#: fine-tune: a smaller step and little entropy, so PPO's first noisy updates do not undo the copy
#: (Secret Hitler, 90k decisions cloned: 0.49 against heuristic agents at step 0, 0.45 after 155k
#: steps at the from-scratch settings), and more heuristic opponents, the ones it must beat.
WARM_START = {"imitation_samples": 200_000, "imitation_epochs": 6, "learning_rate": 1e-4, "ent_coef": 0.003,
              "pool_weights": (0.1, 0.5, 0.4)}

#: Opponents that are the ones to beat: heuristic agents in 80% of the seats, snapshots in the rest
#: (no random players). Volle Socke against it: 0.30 against heuristic agents (1,200 games; a heuristic
#: agent in that seat wins 0.22), where the warm start's pool reached 0.25 (benchmarks/results/learning.md).
#: The games whose clones are far from their heuristic (Teufel, Fass) and the cooperative game keep
#: the warm start's pool until a run shows the change helps them.
VERSUS_HEURISTIC = {"pool_weights": (0.0, 0.8, 0.2)}

PRESETS = {
    "secret_hitler_v0": {**COMMON, "gamma": 0.99, **WARM_START, **VERSUS_HEURISTIC, "policy_head": "pointer"},
    "teufel_teufel_v0": {**COMMON, "gamma": 0.999, "env_config": {"letter_reward": 0.1}, **WARM_START,
                         "policy_head": "pointer"},
    "volle_socke_v0": {**COMMON, "gamma": 0.997, "env_config": {"round_rewards": True}, **WARM_START,
                       **VERSUS_HEURISTIC},
    "volles_fass_voraus_v0": {**COMMON, "gamma": 0.997, "env_config": {"doubloon_shaping": 0.01}, **WARM_START,
                              "policy_head": "pointer"},
    "voll_auf_die_18_v0": {**COMMON, "gamma": 0.995, "env_config": {"reward_shaping": True, "observe_hints": True},
                           **WARM_START, "policy_head": "pointer"},
}

#: Knobs a preset sets and the command line may override.
KNOBS = ("net_arch", "shared_layers", "n_steps", "batch_size", "n_epochs", "learning_rate", "gamma", "gae_lambda",
         "ent_coef", "pool_weights", "obs_squash", "imitation_samples", "imitation_epochs", "policy_head",
         "anchor_coef")


def preset_for(env_id):
    """The preset of ``env_id`` (games outside the five, e.g. test toys, get the common one)."""
    return {**PRESETS.get(env_id, COMMON)}
