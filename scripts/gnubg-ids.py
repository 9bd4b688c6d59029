#!/usr/bin/env python3
"""Checks tabula's `fen gnubgid` and `fen xgid` against GNU Backgammon itself.

Usage: .venv-gnubg/bin/python scripts/gnubg-ids.py [--games N] [--seed S] [--tabula PATH]

tabula plays N random games (cube on, half of them in a 7-point match) with random doubles,
takes and drops. At every position before the game's end tabula writes both formats and gnubg
reads each (`gnubg.set_gnubg_id`, which takes either); what gnubg then holds must be the position
of tabula's own position string: the checkers of the player on roll (the doubler while a double
is offered) and of the opponent, the dice, whose turn it is to decide, a pending double, the
cube's value and owner, the match length, score and Crawford flag. gnubg's own IDs of what it
read must be tabula's, character for character. Exit status 1 and the differences otherwise.
Install the module first: scripts/gnubg-install.sh.
"""
import argparse
import importlib.util
import os
import random
import sys

from requires import require

gnubg = require("gnubg")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("engine", os.path.join(ROOT, "scripts/gnubg-engine.py"))
engine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(engine)


def expected(fen):
    """What gnubg should hold for a tabula position string."""
    words = fen.split()
    sides = {w[0]: engine.parse_side(w[2:]) for w in words[:2]}
    decider = words[2]
    flags = dict(w.split("=", 1) if "=" in w else (w, "") for w in words[4:])
    offered = "offered" in flags
    roller = ("b" if decider == "w" else "w") if offered else decider
    other = "b" if roller == "w" else "w"
    dice = (0, 0) if words[3] == "-" else tuple(sorted((int(words[3][0]), int(words[3][1])), reverse=True))
    value, _, owner = flags.get("cube", "1").partition(":")
    score = tuple(int(s) for s in flags["score"].split("-")) if "score" in flags else (0, 0)
    return {
        "board": (tuple(sides[other]), tuple(sides[roller])),
        "turn": "wb".index(decider),
        "doubled": int(offered),
        "dice": dice,
        "cube": int(value),
        "cubeowner": "wb".index(owner) if owner else -1,
        "matchto": int(flags.get("match", 0)),
        "score": score if "match" in flags else (0, 0),
        "crawford": int("crawford" in flags),
    }


def mirrored(want):
    """`want` with the players' numbers exchanged: gnubg gives XG's bottom player, which is
    tabula's white, its number 1 when it reads an XGID (the board, for the player on roll, is
    the same)."""
    owner = want["cubeowner"]
    return dict(want, turn=1 - want["turn"], cubeowner=owner if owner < 0 else 1 - owner,
                score=want["score"][::-1])


def held():
    """What gnubg holds after reading an ID, in the terms of `expected`."""
    pos, cube = gnubg.pos_info(), gnubg.cube_info()
    return {
        "board": tuple(tuple(half) for half in gnubg.board()),
        "turn": pos["turn"],
        "doubled": pos["doubled"],
        "dice": tuple(sorted(pos["dice"], reverse=True)),
        "cube": cube["cube"],
        "cubeowner": cube["cubeowner"],
        "matchto": cube["matchto"],
        "score": tuple(cube["score"]),
        "crawford": cube["crawford"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tabula", default=os.path.join(ROOT, "target/release/tabula"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = os.fdopen(os.dup(1), "w")  # gnubg's C code prints to stdout: keep it off the report
    os.dup2(2, 1)
    gnubg.command("set threads 1")
    oracle = engine.Oracle(args.tabula)
    checked, failures = 0, []
    for game in range(args.games):
        match = game % 2 == 1
        options = "cube=on" + (" match=7" if match else "")
        if match:
            a, b = rng.randrange(7), rng.randrange(7)
            crawford = " crawford" if (a == 6) != (b == 6) and rng.random() < 0.5 else ""
            start = f"w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening match=7 score={a}-{b}{crawford}"
            oracle.tell(f"newgame backgammon {options}")
            for error in oracle.tell(f"position fen {start}"):
                raise SystemExit(f"tabula refused {start}: {error}")
        else:
            oracle.tell(f"newgame backgammon {options}")
        while True:
            fen = oracle.ask("fen", "fen")[0][4:]
            if oracle.ask("result", "result")[0] != "result none":
                break
            for name in ("gnubgid", "xgid"):
                want = expected(fen)
                text = oracle.ask(f"fen {name}", name)[0].split(" ", 1)[1]
                gnubg.set_gnubg_id(text)
                got = held()
                if want["doubled"]:
                    # gnubg cannot hold a pending double: it steps back to the doubler's turn.
                    want = dict(want, doubled=0, turn=1 - want["turn"])
                if name == "xgid":
                    want = mirrored(want)
                if got != want:
                    diff = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
                    failures.append(f"{fen} | {name} {text} | tabula, gnubg: {diff}")
                if name == "gnubgid" and "offered" not in fen:
                    theirs = f"{gnubg.position_id(gnubg.board())}:{gnubg.match_id()}"
                    if theirs != text:
                        failures.append(f"{fen} | gnubg writes {theirs}, tabula {text}")
                checked += 1
            legal = oracle.ask("legalmoves", "legalmoves")[0].split()[1:]
            if "take" in legal:
                move = "drop" if rng.random() < 0.2 else "take"
            elif "double" in legal and rng.random() < 0.1:
                move = "double"
            elif fen.split()[3] == "-":
                oracle.tell(f"dice {rng.randint(1, 6)}{rng.randint(1, 6)}")  # an opening double is refused: roll again
                continue
            else:
                move = rng.choice(legal)
            for error in oracle.tell(f"move {move}"):
                raise SystemExit(f"tabula refused its own move {move} in {fen}: {error}")
    oracle.close()
    for failure in failures[:20]:
        print(failure, file=out)
    print(f"{checked} IDs checked against gnubg, {len(failures)} differences", file=out)
    out.flush()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
