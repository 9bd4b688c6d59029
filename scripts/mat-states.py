#!/usr/bin/env python3
"""Where a player's match winning chance goes, game by game, in the .mat files of a match run.

Usage: python3 scripts/mat-states.py [--player tabula] DIR...

Reads every DIR/*.mat (as `arena --match N --mat DIR` writes them) and sorts each game by the
state of the match it starts in, from the player's side: a normal game, the Crawford game
(the player leading or trailing), a post-Crawford game (the player leading or trailing), or
both sides 1 away. Per state it prints the games, the share the player won, how many of them
by a gammon or more for each side, and the match winning chance the player gained there:
the sum over those games of MWC after the game less MWC before it (the Kazaross-XG2 table the
engine carries, read from src/games/backgammon/met_kazaross.rs), per match. Over all states
the gains add up to the player's matches won less one half per match, so the table says which
kind of game a shortfall comes from. No judge is needed: it reads only the results.
"""
import argparse
import collections
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def met_tables():
    """(pre-Crawford table [i][j], post-Crawford list [j]) of met_kazaross.rs."""
    with open(os.path.join(ROOT, "src/games/backgammon/met_kazaross.rs")) as f:
        src = f.read()

    def body(name):
        return src.split(f"pub const {name}")[1].split("=", 1)[1].split("];")[0]

    pre = [[float(x) for x in row.split(",") if x.strip()]
           for row in re.findall(r"\[([^\[\]]*)\]", body("PRE_CRAWFORD").split("[", 1)[1])]
    post = [float(x) for x in re.findall(r"\d+\.\d+", body("POST_CRAWFORD"))]
    if len(pre) != 25 or any(len(row) != 25 for row in pre) or len(post) != 25:
        raise SystemExit("mat-states.py: met_kazaross.rs no longer reads as two 25-point tables")
    return pre, post


PRE, POST = met_tables()


def mwc(a, b, post):
    """The winning chance of a side `a` away against `b` away before a game (`post`: after
    the Crawford game)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    if post and (a == 1) != (b == 1):
        return 1.0 - POST[b - 1] if a == 1 else POST[a - 1]
    return PRE[a - 1][b - 1]


def games(path):
    """(match length, [(names, scores, (winner column, points, cube) or None)]) of a .mat
    file; `cube` is the cube's value when the game ended."""
    with open(path) as f:
        lines = f.read().split("\n")
    lengths = [re.match(r"\s*(\d+) point match", line) for line in lines]
    found_length = next((m for m in lengths if m), None)
    if found_length is None:
        raise SystemExit(f"mat-states.py: {path}: no 'N point match' line")
    length = int(found_length.group(1))
    found = []
    cube = 1
    for line in lines:
        head = re.match(r"\s*(\S+) : (\d+)\s+(\S+) : (\d+)", line)
        if head:
            found.append([(head.group(1), head.group(3)),
                          (int(head.group(2)), int(head.group(4))), None])
            cube = 1
            continue
        doubled = re.search(r"Doubles => (\d+)", line)
        if doubled:
            cube = int(doubled.group(1))
        won = re.search(r"Wins (\d+) point", line)
        if won and found:
            # The left column of a move line ends by column 30, the right one starts after it.
            found[-1][2] = (0 if line.index("Wins") < 30 else 1, int(won.group(1)), cube)
    return length, found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="tabula")
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    # state: [games, won, won with gammons, lost to gammons, MWC gained]
    tally = collections.defaultdict(lambda: [0, 0, 0, 0, 0.0])
    matches = 0
    for path in sorted(p for d in args.dirs for p in glob.glob(os.path.join(d, "*.mat"))):
        length, played = games(path)
        matches += 1
        crawford_done = False
        for names, scores, result in played:
            if result is None or args.player not in names:
                continue
            me = names.index(args.player)
            a, b = length - scores[me], length - scores[1 - me]
            if (a == 1) != (b == 1) and not crawford_done:
                state, post, crawford_done = ("Crawford, leading" if a == 1 else
                                              "Crawford, trailing"), False, True
            elif a == 1 and b == 1:
                state, post = "both 1 away", True
            elif a == 1 or b == 1:
                state, post = ("post-Crawford, leading" if a == 1 else
                               "post-Crawford, trailing"), True
            else:
                state, post = "normal", False
            winner, points, cube = result
            mine = winner == me
            a2, b2 = (a - points, b) if mine else (a, b - points)
            row = tally[state]
            row[0] += 1
            row[1] += mine
            # A drop ends the game at the cube before the double, never a gammon.
            gammon = points >= 2 * cube
            row[2] += mine and gammon
            row[3] += not mine and gammon
            row[4] += mwc(a2, b2, crawford_done) - mwc(a, b, post)
    print(f"{matches} matches, {args.player}'s view; MWC gained per match, in percent")
    total = 0.0
    for state, (n, won, gammons, lgammons, gained) in sorted(tally.items()):
        total += gained
        print(f"{state:24} games {n:5}  won {won / n:6.1%}  gammons won {gammons:4} lost {lgammons:4}"
              f"  MWC {100 * gained / matches:+.2f}")
    print(f"{'all':24} MWC {100 * total / max(matches, 1):+.2f}")


if __name__ == "__main__":
    main()
