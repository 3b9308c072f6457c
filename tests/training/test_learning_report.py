"""The learning page's verdict: when does a policy beat the heuristic (benchmarks/learning.py)."""

from benchmarks.learning import flat, heuristic_bar, targets


def _row(ppo, fair, heuristic_own):
    rate = lambda w: {"win_rate": w, "ci_low": w - 0.05, "ci_high": w + 0.05, "games": 400}  # noqa: E731
    return {"players": 4, "timesteps": 1000, "minutes": 1.0, "fair_share": fair, "ppo_vs_random": rate(0.9),
            "ppo_vs_heuristic": rate(ppo), "heuristic_vs_random": rate(1.0), "heuristic_vs_heuristic": rate(heuristic_own)}


def test_the_bar_is_the_heuristics_own_rate_where_several_seats_can_win():
    # Teufel Teufel: everyone who leaves the board in time wins, so a heuristic seat wins ~0.48.
    row = _row(ppo=0.30, fair=0.25, heuristic_own=0.483)
    assert heuristic_bar(row) == 0.483
    summary = flat({"teufel_teufel_v0": row})["teufel_teufel_v0"]
    assert summary["heuristic_bar"] == 0.483 and summary["beats_heuristic"] is False


def test_the_bar_is_the_fair_share_where_the_heuristic_wins_less_in_its_seat():
    row = _row(ppo=0.27, fair=0.25, heuristic_own=0.21)
    assert heuristic_bar(row) == 0.25
    assert flat({"volle_socke_v0": row})["volle_socke_v0"]["beats_heuristic"] is True


def test_the_target_line_counts_games_above_their_bar():
    rows = {"teufel_teufel_v0": _row(0.30, 0.25, 0.483), "volle_socke_v0": _row(0.27, 0.25, 0.21)}
    verdict = [line for line in targets(rows) if line.startswith("- Beats the heuristic")]
    assert verdict and "in 1 of 2" in verdict[0] and "MISSED" in verdict[0]


def test_beating_random_play_means_beating_a_random_agent_in_the_same_seat():
    # Secret Hitler: with random team-mates a random seat wins ~0.46, below the fair share of 0.5.
    row = {**_row(ppo=0.5, fair=0.5, heuristic_own=0.5), "random_vs_random": {"win_rate": 0.46, "ci_low": 0.41,
                                                                              "ci_high": 0.51, "games": 400}}
    row["ppo_vs_random"] = {"win_rate": 0.52, "ci_low": 0.47, "ci_high": 0.57, "games": 400}
    summary = flat({"secret_hitler_v0": row})["secret_hitler_v0"]
    assert summary["random_bar"] == 0.46 and summary["beats_random"] is True
    row["ppo_vs_random"] = {"win_rate": 0.49, "ci_low": 0.44, "ci_high": 0.54, "games": 400}
    assert flat({"secret_hitler_v0": row})["secret_hitler_v0"]["beats_random"] is False
    line = next(line for line in targets({"secret_hitler_v0": row}) if line.startswith("- secret_hitler_v0"))
    assert "a random agent in that seat wins 0.460" in line and "does NOT beat random" in line


def test_runs_stored_before_the_random_line_keep_the_fair_share_as_the_random_bar():
    row = _row(ppo=0.3, fair=0.25, heuristic_own=0.2)
    summary = flat({"volle_socke_v0": row})["volle_socke_v0"]
    assert summary["random_bar"] == 0.25 and summary["beats_random"] is True
