#!/usr/bin/env python3
"""GNU Backgammon behind tabula's protocol: a sparring partner for `arena --game backgammon`.

Usage: .venv-gnubg/bin/python scripts/gnubg-engine.py [--plies N] [--tabula PATH]

Answers `bestmove` with gnubg's checker play at N plies (gnubg's numbering: 0 = its network
alone, 1 = one ply of lookahead; default 0), money play with gammons and backgammons counted
(`match=` as a game option is refused), or a game of a match when the position string carries
the score (`position fen ... match=N score=W-B [crawford]`, as `arena --match N` sends it: the
XGID gives gnubg the match length, score and Crawford flag). Without the cube the checker play is the Python module's move finder
(cubeless). With `cube=on` (and `jacoby=`, `beaver=` as the game has them) gnubg plays the
cube game as it does itself, cubeful at N plies: the position goes to gnubg as tabula's XGID,
which carries the dice, the cube, a pending double and the Jacoby and beaver flags; gnubg's
`hint` command gives its checker play, and its `eval` command its proper cube action: `go`
before the roll answers `double` or `roll`, facing a double `take`, `drop` or `beaver`. A
tabula child process is the rules oracle: it keeps the position from the `position`/`dice`
lines, gives the position strings and the legal moves, and the answer is the tabula legal
move whose resulting position is the one gnubg chose, so every answer is legal. Install the
module first: scripts/gnubg-install.sh.
"""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile

from requires import require

gnubg = require("gnubg")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAR = 24  # index of the bar in a gnubg half-board (points 1..24 are 0..23)
# A play of gnubg's `hint`: "    3. Cubeful 1-ply    24/21 6/5        Eq.: -0.601 (-0.052)".
HINT_LINE = re.compile(r"^\s*\d+\.\s+Cubeful \d+-ply\s+(.*?)\s+Eq\.:\s+([-+]?\d+\.\d+)")


def parse_side(text):
    """One side's checkers from a tabula list (`bar:1,24:2,...` or `-`) as a gnubg half-board."""
    half = [0] * 25
    if text != "-":
        for item in text.split(","):
            point, count = item.split(":")
            half[BAR if point == "bar" else int(point) - 1] = int(count)
    return half


def parse_fen(fen):
    """(board, dice) from a tabula position string: board = (opponent, mover) half-boards as
    gnubg wants them for the side to move; dice None when no roll is set."""
    words = fen.split()
    sides = {w[0]: parse_side(w[2:]) for w in words[:2]}
    mover = words[2]
    other = "b" if mover == "w" else "w"
    dice = None if words[3] == "-" else (int(words[3][0]), int(words[3][1]))
    return (sides[other], sides[mover]), dice


def play_step(opp, me, src, dst):
    """Moves one of the mover's checkers from src to dst (mover's points 1..24, 25 bar, 0 off),
    hitting a lone opposing checker (its point 25 - dst) to its bar."""
    me[src - 1] -= 1
    if dst > 0:
        me[dst - 1] += 1
        if opp[24 - dst] == 1:
            opp[24 - dst] = 0
            opp[BAR] += 1


def after_steps(board, steps):
    """The board (opponent, mover) after the mover's steps, as an immutable key."""
    opp, me = list(board[0]), list(board[1])
    for src, dst in steps:
        play_step(opp, me, src, dst)
    return tuple(opp), tuple(me)


def tabula_steps(token):
    """The steps of a tabula move token (`31:8/5,6/5`, `63:pass`) in gnubg numbering."""
    play = token.split(":", 1)[1]
    if play == "pass":
        return []
    steps = []
    for step in play.split(","):
        src, dst = step.replace("*", "").split("/")
        steps.append((25 if src == "bar" else int(src), 0 if dst == "off" else int(dst)))
    return steps


def gnubg_steps(move):
    """The (from, to) pairs of a gnubg move tuple, or None when the tuple is cut short: the
    module ends a tuple at the first 0, so a bearing-off step loses its `to` and every later
    step (the tuple then has an odd length)."""
    if len(move) % 2:
        return None
    return [(move[i], move[i + 1]) for i in range(0, len(move), 2)]


def swapped(board):
    """The same position seen by the other side (the opponent to move)."""
    return board[1], board[0]


class Oracle:
    """A tabula process that holds the position and says what is legal."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def ask(self, line, prefix):
        """Sends a query and returns the first answer line starting with prefix (and errors)."""
        self.proc.stdin.write(line + "\n")
        errors = []
        while True:
            answer = self.proc.stdout.readline()
            if not answer:
                raise RuntimeError("tabula exited")
            answer = answer.rstrip("\n")
            if answer.startswith("error"):
                errors.append(answer)
            if answer == prefix or answer.startswith(prefix + " "):
                return answer, errors

    def tell(self, line):
        """Sends a command that is silent on success; returns its `error` lines."""
        self.proc.stdin.write(line + "\n")
        return self.ask("isready", "readyok")[1]

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
        except OSError:
            pass
        self.proc.wait(timeout=5)


def printed(command):
    """What gnubg prints for a command (its C code writes to file descriptor 1); a callable
    is called instead."""
    libc = ctypes.CDLL(None)
    with tempfile.TemporaryFile() as f:
        sys.stdout.flush()
        libc.fflush(None)
        saved = os.dup(1)
        os.dup2(f.fileno(), 1)
        try:
            command() if callable(command) else gnubg.command(command)
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        return f.read().decode(errors="replace")


def hint(xgid, plies, count=1000):
    """gnubg's cubeful `hint` for the position of a tabula XGID with the dice set: its best
    `count` plays, best first, as (play in gnubg's words, equity); every play at 0 plies and
    those its move filter keeps at `plies`."""
    printed(f"set evaluation chequerplay evaluation plies {plies}")
    printed(lambda: gnubg.set_gnubg_id(xgid))  # not its "Setting GNUbg ID" on stderr
    plays = [(m.group(1).strip(), float(m.group(2)))
             for m in map(HINT_LINE.match, printed(f"hint {count}").splitlines()) if m]
    if not plays:
        raise SystemExit(f"gnubg gave no hint for {xgid}")
    return plays


class Engine:
    """The protocol loop: gnubg chooses, the oracle checks."""

    def __init__(self, out, plies, tabula):
        self.out = out
        self.plies = plies
        self.oracle = Oracle(tabula)
        self.cube = gnubg.cube_info()  # money, centred cube of 1: cubeless equity with gammons
        self.context = gnubg.eval_context(0, plies, 1, 0, 0.0)  # cubeless, deterministic
        self.options = ""
        self.oracle.tell("newgame backgammon")
        # gnubg's commands hang in this embedding unless evaluations stay on the calling thread.
        printed("set threads 1")
        printed(f"set evaluation cubedecision eval plies {plies}")

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def set_game(self, options):
        """Starts a backgammon game with arena's options, refusing those gnubg would misplay."""
        words = options.split()
        if any(w.startswith("match=") and w != "match=0" for w in words):
            return [f"error gnubg-engine plays money games only, not: {options}"]
        self.options = options
        return self.oracle.tell(f"newgame backgammon {options}".strip())

    def choose(self):
        """gnubg's play as a tabula move token, or an error line and 0000."""
        fen = self.oracle.ask("fen", "fen")[0][4:]
        legal = self.oracle.ask("legalmoves", "legalmoves")[0].split()[1:]
        board, dice = parse_fen(fen)
        if "take" in legal:
            answer = self.cube_action().partition(",")[2].strip()
            if answer.startswith("pass"):
                return "drop", None
            return ("beaver" if answer.startswith("beaver") and "beaver" in legal else "take"), None
        if dice is None:
            if "double" not in legal:
                return "0000", "error no roll yet: send dice ROLL first"
            action = self.cube_action().partition(",")[0].strip()
            return ("double" if action in ("Double", "Redouble") else "roll"), None
        if len(legal) <= 1:
            return (legal[0], None) if legal else ("0000", "error the game is over")
        results = {after_steps(board, tabula_steps(m)): m for m in legal}
        if "cube=on" in self.options.split():
            xgid = self.oracle.ask("fen xgid", "xgid")[0].split(" ", 1)[1]
            play = hint(xgid, self.plies, 1)[0][0]
            token = results.get(after_steps(board, gnubg.parse_move(play)))
            if token is None:
                return "0000", f"error gnubg's play {play} is not legal for tabula in {fen}"
            return token, None
        steps = gnubg_steps(gnubg.find_best_move(board, self.cube, self.context, dice))
        if steps is None:
            return self.rank(results), None
        token = results.get(after_steps(board, steps))
        if token is None:
            return "0000", f"error gnubg's play {steps} is not legal for tabula in {fen}"
        return token, None

    def cube_action(self):
        """gnubg's proper cube action for the doubler (`Double, take`, `No double, take`, `Too
        good to double, pass`, ...); facing a double gnubg steps back to the doubler's turn.
        Where gnubg sees a dead cube (the leader 1-away after the Crawford game, whose double
        the rules allow but which gains nothing) its `eval` has no cube analysis: no double,
        and a take."""
        xgid = self.oracle.ask("fen xgid", "xgid")[0].split(" ", 1)[1]
        printed(lambda: gnubg.set_gnubg_id(xgid))  # not its "Setting GNUbg ID" on stderr
        text = printed("eval")
        for line in text.splitlines():
            if line.startswith("Proper cube action:"):
                return line.split(":", 1)[1].strip()
        if "Cubeful" in text:
            return "No double, take"
        raise SystemExit(f"gnubg gave no cube action for {xgid}")

    def rank(self, results):
        """gnubg's own choice made again from the legal moves, for when its move tuple is cut
        short: every play at 0 plies, then the best 8 within 0.16 (gnubg's default move filter)
        at the engine's plies. A move's score is minus the equity of the position it leaves
        for the opponent on roll, which is what gnubg ranks by."""
        def score(after, context):
            return -gnubg.evaluate(swapped(after), self.cube, context)[5]

        static = gnubg.eval_context(0, 0, 1, 0, 0.0)
        scores = {after: score(after, static) for after in results}
        ranked = sorted(results, key=lambda after: -scores[after])
        if self.plies > 0:
            kept = [a for a in ranked[:8] if scores[a] >= scores[ranked[0]] - 0.16]
            ranked = sorted(kept, key=lambda after: -score(after, self.context))
        return results[ranked[0]]

    def run(self, lines):
        for raw in lines:
            words = raw.split()
            if not words:
                continue
            cmd = words[0]
            errors = []
            if cmd in ("ugi", "uci"):
                self.say(f"id name gnubg-{self.plies}ply")
                self.say("id author GNU Backgammon (PyPI gnubg) behind scripts/gnubg-engine.py")
                self.say("option name Game type combo default backgammon var backgammon")
                self.say("option name GameOptions type string default <empty>")
                self.say("ugiok")
            elif cmd == "isready":
                self.say("readyok")
            elif cmd == "setoption":
                text = raw.split(None, 1)[1] if len(words) > 1 else ""
                name, _, value = text.partition(" value ")
                name = name.removeprefix("name ").strip().lower()
                value = value.strip()
                if name == "game" and value != "backgammon":
                    errors.append(f"error gnubg-engine plays backgammon only, not {value}")
                elif name == "gameoptions":
                    errors += self.set_game("" if value == "<empty>" else value)
                elif name != "game":
                    errors.append(f"error unknown option {name}")
            elif cmd in ("uginewgame", "ucinewgame"):
                errors += self.oracle.tell(f"newgame backgammon {self.options}".strip())
            elif cmd in ("position", "dice"):
                errors += self.oracle.tell(raw.strip())
            elif cmd == "go":
                token, error = self.choose()
                if error:
                    self.say(error)
                self.say(f"bestmove {token}")
            elif cmd == "quit":
                break
            elif cmd not in ("stop", "ponderhit"):
                errors.append(f"error unknown command {cmd}")
            for error in errors:
                self.say(error)
        self.oracle.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=0, choices=range(0, 4))
    parser.add_argument("--tabula", default=os.path.join(ROOT, "target/release/tabula"))
    args = parser.parse_args()
    # The protocol gets its own copy of stdout; what gnubg's C code prints goes to stderr, so
    # that it can never reach the arbiter as a garbage line.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    Engine(out, args.plies, args.tabula).run(sys.stdin)


if __name__ == "__main__":
    main()
