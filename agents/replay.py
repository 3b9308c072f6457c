"""Show a saved game: its moves and tables as text, or as an animated GIF.

    python -m agents.replay game.json                  # every move by name, then the final table
    python -m agents.replay game.json --step 12        # the moves up to decision 12 and the table there
    python -m agents.replay game.json --gif game.gif   # one frame for the start and one per decision
    python -m agents.replay game.json --tables         # the table after every decision too

Replays are written by ``python -m agents.play ... --save-replay FILE``,
``python -m training.evaluate ... --replays DIR`` and ``envs.core.replay.save(env, FILE)``; a live
env at any step is ``envs.core.replay.replay_env(envs.core.replay.load(FILE), step=N)``. Tables
show everything (every hand, every role) unless ``--viewer SEAT`` limits them to one seat's view.
"""

import argparse
import sys

from envs.core.play import save_gif
from envs.core.replay import ReplayError, load, positions


def show(replay, step=None, viewer=None, tables=False, print_fn=print):
    """Print the replay's moves (up to decision ``step``) and the table at the end."""
    print_fn(f"{replay.env_id}, {replay.config['num_players']} players, "
             + (f"seed {replay.seed}" if replay.seed is not None else "from a saved position")
             + f", {replay.decisions} decisions")
    position = None
    for position in positions(replay, render_mode="ansi", upto=step):
        position.env.unwrapped.render_viewer = viewer
        if position.step == 0:
            if tables:
                print_fn(position.env.render())
            continue
        print_fn(f"{position.step:>5}. " + "; ".join(position.names))
        if tables:
            print_fn(position.env.render())
    if not tables:
        print_fn(position.env.render())
    return position.env


def write_gif(replay, path, step=None, frame_ms=600):
    """An animated GIF of the replay up to decision ``step``: the start and one frame per decision."""
    frames = [position.env.render() for position in positions(replay, render_mode="rgb_array", upto=step)]
    save_gif(frames, path, frame_ms)
    return len(frames)


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a replay file (JSON) written by agents.play, training.evaluate or "
                                     "envs.core.replay.save")
    parser.add_argument("--step", type=int, default=None, metavar="N",
                        help="stop after decision N (0: the start; default: the whole game)")
    parser.add_argument("--gif", default=None, metavar="OUT.gif", help="write an animated GIF instead of text")
    parser.add_argument("--frame-ms", type=int, default=600, help="milliseconds per GIF frame (default 600)")
    parser.add_argument("--viewer", type=int, default=None, metavar="SEAT",
                        help="show the tables as this seat sees them (default: everything)")
    parser.add_argument("--tables", action="store_true", help="print the table after every decision")
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        replay = load(args.file)
    except ReplayError as error:
        parser.error(str(error))
    if args.step is not None and not 0 <= args.step <= replay.decisions:
        parser.error(f"--step {args.step}: the replay has decisions 0 to {replay.decisions}")
    players = replay.config["num_players"]
    if args.viewer is not None and not 0 <= args.viewer < players:
        parser.error(f"--viewer {args.viewer}: choose a seat from 0 to {players - 1}")
    if args.frame_ms < 1:
        parser.error("--frame-ms must be at least 1")
    try:
        if args.gif:
            frames = write_gif(replay, args.gif, args.step, args.frame_ms)
            print(f"wrote {args.gif} ({frames} frames)")
        else:
            show(replay, args.step, args.viewer, args.tables)
    except ReplayError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
