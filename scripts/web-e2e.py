#!/usr/bin/env python3
"""End-to-end test of the web board in a real headless Chromium (docs/web.md).

Starts `web-board` on a free port and, at a desktop size and at a phone size (device
emulation: 360 px, touch), plays every game of the page to the end with its default options,
White's first moves tapped on the board against the engine, and each other option value its
menus offer once, at one of the two sizes in turn, watched (engine against engine at the
Beginner level, Novice in backgammon).
Every game's final position string and result are checked against a fresh engine replaying
the page's move list, the result banner against the engine's `result`, and the move list is
stepped back and forward. It checks the game menu against /games.json, plays Breakthrough
through the generic view (the engine's `d` text and a button per legal move: web/games.js does
not draw it), opens the choice prompts (Morris mill, GIPF row choice,
backgammon cube offer) and the analysis pane, saves screenshots of all of them to docs/web/,
checks errors, pasted strings and take-backs, and fails on any console error. A 3-point
backgammon match is saved with `Save match (.mat)` and the file read back by `backgammon-mat`
and, when Debian's gnubg is there, round-tripped through GNU Backgammon.
Last, 100 page loads must leave no engine process behind. Usage: web-e2e.py BIN_DIR.
"""
import base64
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, "docs", "web")
GAMES = ["gipf", "bombardment", "cascades", "morris", "backgammon", "nim"]
SIZES = {"desktop": (1280, 900, False), "phone": (360, 740, True)}
# For working on the page: WEB_E2E_GAMES=morris,gipf WEB_E2E_SIZES=phone run only those.
GAMES = os.environ.get("WEB_E2E_GAMES", ",".join(GAMES)).split(",")
ALL_SIZES = SIZES
SIZES = {k: SIZES[k] for k in os.environ.get("WEB_E2E_SIZES", ",".join(SIZES)).split(",")}
TAPPED = 4               # White's moves tapped on the board before the engine takes over
SESSIONS = 100
# The game played at each size through the generic view (the engine's `d` text and a button
# per legal move): Breakthrough, which web/games.js has no drawing for, as the next new game.
GENERIC = "breakthrough"


def clicks(game, move):
    """The clicks that enter `move`: ('point', NAME) on the board or ('button', TOKEN).

    Written from notation.md's move syntax, independently of the page's own code."""
    if game == "bombardment":
        if move.startswith("x"):
            return [("point", move[1:]), ("button", move)]
        return [("point", p) for p in re.findall(r"[a-p]\d+", move)]
    if game == "morris":
        return [("point", p) for p in re.findall(r"[a-g][1-7]", move)]
    if game == "cascades":
        return [("button", "pass")] if move == "pass" else [("point", p) for p in move.split(",")]
    if game == "gipf":
        out = []
        for part in move.split(":"):
            if part.startswith("x"):
                out += [("button", c) for c in part.split(",")]
            else:
                if part.startswith("G"):
                    out.append(("button", "G"))
                out += [("point", p) for p in part.lstrip("G").split("-")]
        return out
    if game == "backgammon":
        if ":" not in move or move.endswith(":pass"):
            return [("button", move)]
        return [("point", p) for step in move.split(":")[1].split(",") for p in step.split("/")]
    if game == "nim":
        return [("point", move)]
    raise ValueError(game)


def board_text(game, moves):
    """The board lines of the engine's `d` after `moves` (what precedes its `game` line)."""
    script = f"newgame {game}\nposition startpos moves {' '.join(moves)}\nd\n"
    out = subprocess.run([os.path.join(BIN, "tabula")], input=script, capture_output=True,
                         text=True, timeout=60).stdout.splitlines()
    return "\n".join(out[:next(i for i, l in enumerate(out) if l.startswith("game "))])


def engine(game, opts, moves, start=None):
    """The position string and result a fresh engine gives for a move list."""
    pos = f"fen {start}" if start else "startpos"
    script = f"newgame {game} {opts}\nposition {pos} moves {' '.join(moves)}\nfen\nresult\n"
    out = subprocess.run([os.path.join(BIN, "tabula")], input=script, capture_output=True,
                         text=True, timeout=60).stdout.splitlines()
    fen = next(l[4:] for l in out if l.startswith("fen "))
    result = next(l[7:] for l in out if l.startswith("result "))
    return fen, result


def banner_words(result):
    """What the banner must say for an engine result (`white blocked` -> 'White wins')."""
    who = result.split()[0]
    return "Draw" if who == "draw" else f"{who.capitalize()} wins"


class Page:
    """The board page in one browser."""

    def __init__(self, driver, url, size):
        self.d = driver
        self.url = url
        self.size = size

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def state(self):
        return self.js(
            "const S = window.tabula; return S && S.st ? {side: S.st.side, searching: S.searching, "
            "result: S.result, plies: S.ply, line: S.moves.length, legal: S.legal, "
            "dice: S.st.dice || null, fen: S.fen, game: S.game, opts: S.opts, "
            "offered: !!S.st.offered, busy: waiters.length > 0} : null;")

    def wait(self, cond, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            st = self.state()
            if st and not st["busy"] and cond(st):
                return st
            time.sleep(0.02)
        raise AssertionError(f"{self.size}: timed out waiting for {what}: {self.state()}")

    def click(self, kind, name):
        if kind == "point":
            sel = f'#board [data-point="{name}"]'
        else:
            sel = f'#choices button[data-token="{name}"]'
        el = self.d.find_element(By.CSS_SELECTOR, sel)
        if kind == "button":
            self.js("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()

    def button(self, bid):
        el = self.d.find_element(By.ID, bid)
        self.js("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()

    def choose(self, select_id, value):
        Select(self.d.find_element(By.ID, select_id)).select_by_value(value)

    def text(self, eid):
        return self.d.find_element(By.ID, eid).text

    def console_errors(self):
        """Console errors since the last call (none is allowed)."""
        return [e for e in self.d.get_log("browser") if e["level"] == "SEVERE"]

    def shot(self, name):
        """A screenshot of the whole page (below the fold too) to docs/web/NAME-SIZE.png."""
        w, h, mobile = SIZES[self.size]
        full = self.js("return document.documentElement.scrollHeight")
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": w, "height": max(h, full), "deviceScaleFactor": 1, "mobile": mobile})
        try:
            png = self.d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"]
            with open(os.path.join(SHOTS, f"{name}-{self.size}.png"), "wb") as f:
                f.write(base64.b64decode(png))
        finally:
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": w, "height": h, "deviceScaleFactor": 1 if not mobile else 2,
                "mobile": mobile})

    def setup(self, game, opts, white="human", black="human"):
        """A new game of `game` with `opts` ({key: value}), the players chosen after it."""
        self.choose("white", "human")
        self.choose("black", "human")
        self.wait(lambda s: not s["searching"], "no search")
        if self.js("return document.getElementById('game').value") != game:
            self.choose("game", game)
        for sel in self.d.find_elements(By.CSS_SELECTOR, "#options select"):
            Select(sel).select_by_index(0)
        for key, value in opts.items():
            self.choose_option(key, value)
        self.button("newgame")
        want = " ".join(f"{k}={v}" for k, v in opts.items())
        self.wait(lambda s: s["game"] == game and s["opts"] == want and s["line"] == 0 and
                  s["result"] == "none", f"a new {game} {want}")
        self.choose("white", white)
        self.choose("black", black)

    def choose_option(self, key, value):
        Select(self.d.find_element(By.CSS_SELECTOR, f'#options select[data-key="{key}"]')) \
            .select_by_value(value)


def option_sets(page, game):
    """Every option value the page offers for a game (from the engine's declarations, with
    the other options a value needs), one game each: the defaults first."""
    options = page.js(f"return CATALOG['{game}'].options")
    sets = [{}]
    for o in options:
        for v in o["values"][1:]:
            opts = dict(o["needs"])
            opts[o["key"]] = v
            sets.append(opts)
    return sets


def ordered(page, game, opts):
    """The options in the page's menu order (how the page writes them to `newgame`)."""
    keys = [o["key"] for o in page.js(f"return CATALOG['{game}'].options")]
    return {k: opts[k] for k in keys if k in opts}


def check_catalog(page):
    """The game menu offers every game the server's /games.json lists, and nothing else."""
    listed = page.js("return Object.keys(CATALOG)")
    menu = page.js("return [...document.getElementById('game').options].map((o) => o.value)")
    assert sorted(menu) == sorted(listed) and listed, f"menu {menu}, catalogue {listed}"


def play_generic(page, rng):
    """GENERIC through the generic view, as a game the page has no drawing for: the board is
    the engine's `d` text, every legal move a button; random moves to the end, checked."""
    page.d.get(page.url + "?generic=" + GENERIC)
    page.wait(lambda s: s["fen"], "the generic page's session")
    page.setup(GENERIC, {})
    assert not page.d.find_element(By.ID, "board").is_displayed(), "the drawing is shown"
    while True:
        st = page.wait(lambda s: True, "the position")
        if st["result"] != "none":
            break
        text = page.js("return document.getElementById('boardtext').textContent")
        want = board_text(GENERIC, page.js("return window.tabula.moves"))
        assert text == want, f"generic board {text!r}, engine {want!r}"
        buttons = page.js("return [...document.querySelectorAll('#choices button')]"
                          ".map((b) => b.dataset.token)")
        assert sorted(buttons) == sorted(st["legal"]), f"buttons {buttons}, legal {st['legal']}"
        move = rng.choice(st["legal"])
        before = st["plies"]
        page.click("button", move)
        page.wait(lambda s: s["plies"] > before, f"{move} to be played")
    n, result = check_end(page, GENERIC, {})
    page.shot("generic")
    page.d.get(page.url)
    page.wait(lambda s: s["fen"], "the page again")
    return n, result


def check_end(page, game, opts):
    """The final position and result against the engine, the banner against the result, and
    the move list navigated back and forward."""
    st = page.state()
    moves = page.js("return window.tabula.moves")
    optstr = " ".join(f"{k}={v}" for k, v in opts.items())
    want_fen, want_result = engine(game, optstr, moves)
    assert st["fen"] == want_fen, f"{game} {optstr}: page {st['fen']!r}, engine {want_fen!r}"
    assert st["result"] == want_result != "none", f"{game}: {st['result']} vs {want_result}"
    banner = page.text("banner")
    assert banner_words(want_result) in banner, f"{game}: banner {banner!r} for {want_result}"
    # Review: the first move from the list, back to the start, forward, then the end.
    entries = page.d.find_elements(By.CSS_SELECTOR, "#movelist button.ply")
    assert len(entries) == len(moves), f"{game}: {len(entries)} entries for {len(moves)} moves"
    entries[0].click()
    st = page.wait(lambda s: s["plies"] == 1, "the first move shown")
    assert st["fen"] == engine(game, optstr, moves[:1])[0]
    page.button("prev")
    page.wait(lambda s: s["plies"] == 0, "the start shown")
    page.button("next")
    page.button("next")
    if len(moves) >= 2:
        st = page.wait(lambda s: s["plies"] == 2, "two moves shown")
        assert st["fen"] == engine(game, optstr, moves[:2])[0]
    page.button("last")
    st = page.wait(lambda s: s["plies"] == len(moves) and s["result"] != "none", "the end again")
    assert st["fen"] == want_fen and st["line"] == len(moves)
    return len(moves), want_result


def play_tapped(page, game, rng):
    """White taps random legal moves against the Beginner engine, then the engine plays on."""
    page.setup(game, {}, "human", "beginner")
    tapped = 0
    while tapped < TAPPED:
        st = page.wait(lambda s: s["result"] != "none" or (s["side"] == "w" and not s["searching"]),
                       "White's turn or the end")
        if st["result"] != "none":
            break
        if game == "backgammon" and not st["dice"] and not st["offered"] and \
                "double" not in st["legal"]:
            page.click("button", "roll")
            st = page.wait(lambda s: s["dice"], "the roll")
        # The engine's own line is no hint while it plays a human.
        assert not page.d.find_elements(By.CSS_SELECTOR, "#board .arrow-pv1"), "a free hint"
        move = rng.choice([m for m in st["legal"] if m != "double"] or st["legal"])
        before = st["plies"]
        for kind, name in clicks(game, move):
            page.click(kind, name)
        if page.state()["plies"] == before:
            page.click("button", "play")  # a move that longer moves start with (Cascades)
        page.wait(lambda s: s["plies"] > before, f"{move} to be played")
        played = page.js("return window.tabula.moves[%d]" % before)
        assert played == move, f"{game}: tapped {move}, the page played {played}"
        tapped += 1
    page.choose("white", "beginner")
    page.wait(lambda s: s["result"] != "none", f"the end of {game}", 300)
    n, result = check_end(page, game, {})
    page.shot(game)
    return n, result, tapped


def play_watched(page, game, opts):
    # Random backgammon games last about twice as long as the Novice's (greedy) ones.
    level = "novice" if game == "backgammon" else "beginner"
    page.setup(game, opts, level, level)
    page.wait(lambda s: s["result"] != "none", f"the end of {game} {opts}", 300)
    n, result = check_end(page, game, opts)
    if game == "backgammon" and opts.get("match", "0") != "0":
        check_next_match_game(page, int(opts["match"]), result)
    return n, result


def check_next_match_game(page, length, result):
    """A match game's end: the next game starts from the new score, or the match is over."""
    words = result.split()
    points = int(words[words.index("points") + 1]) if "points" in words else 1
    score = [points, 0] if words[0] == "white" else [0, points]
    button = page.d.find_element(By.ID, "nextgame")
    if max(score) >= length:
        assert not button.is_displayed(), "a next game after the match is won"
        assert "wins the match" in page.text("banner"), page.text("banner")
        return
    page.choose("white", "human")
    page.choose("black", "human")
    page.button("nextgame")
    crawford = " crawford" if length - 1 in score else ""
    want = f"match={length} score={score[0]}-{score[1]}{crawford}"
    st = page.wait(lambda s: s["line"] == 0 and s["result"] == "none" and want in s["fen"],
                   f"the next game at {want}")
    assert st["fen"].endswith(want), st["fen"]


def check_prompts(page):
    """The choice prompts: a Morris mill, a GIPF row choice and a backgammon cube offer."""
    # Morris: White closes a1-d1-g1 by placing on g1, then must take a black man.
    page.setup("morris", {})
    paste(page, "fen", ".../.../.../....../.../BB./WW. w 7 7 4")
    page.click("point", "g1")
    page.wait(lambda s: True, "the mill prompt")
    assert "Mill" in page.text("prompt"), page.text("prompt")
    targets = page.d.find_elements(By.CSS_SELECTOR, "#board .hit.target")
    assert sorted(t.get_attribute("data-point") for t in targets) == ["b2", "d2"], "b2 or d2"
    page.shot("morris-mill")
    page.click("point", "d2")
    page.wait(lambda s: s["plies"] == 1, "the capture")
    assert page.js("return window.tabula.moves[0]") == "g1xd2"
    assert page.d.find_elements(By.CSS_SELECTOR, "#board .removed-mark"), "no mark for d2"
    # GIPF: c1-c2 makes two white rows that cross at c2; each is a numbered button.
    page.setup("gipf", {})
    paste(page, "fen", "b2w/1www1/1w4/2w3b/2w3/5/b2w w 7 12 0 0")
    page.click("point", "c1")
    page.click("point", "c2")
    page.wait(lambda s: True, "the row choice")
    assert "row" in page.text("prompt"), page.text("prompt")
    runs = page.d.find_elements(By.CSS_SELECTOR, "#board [data-run]")
    assert sorted(r.get_attribute("data-run") for r in runs) == ["xc2-c5", "xc2-f4"]
    page.shot("gipf-rows")
    page.click("button", "xc2-c5")
    page.wait(lambda s: s["plies"] == 1, "the push with its row")
    assert page.js("return window.tabula.moves[0]") == "c1-c2:xc2-c5"
    assert len(page.d.find_elements(By.CSS_SELECTOR, "#board .removed-mark")) == 3  # c3, c4, c5
    # Backgammon with the cube: both sides play a turn, then White doubles and Black answers.
    page.setup("backgammon", {"cube": "on"})
    rng = random.Random(5)
    for _ in range(2):
        bg_turn(page, rng)
    page.click("button", "double")
    page.wait(lambda s: s["offered"], "the offer")
    assert "take or drop" in page.text("prompt"), page.text("prompt")
    page.shot("backgammon-cube")
    page.click("button", "take")
    st = page.wait(lambda s: not s["offered"] and s["plies"] == 4, "the take")
    assert "cube=2:b" in st["fen"], st["fen"]
    # A pasted backgammon position with its roll: its plays can be tapped at once.
    page.setup("backgammon", {})
    paste(page, "fen", "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w 31 opening")
    for point in ["8", "5", "6", "5"]:
        page.click("point", point)
    page.wait(lambda s: s["plies"] == 1, "the tapped play")
    assert page.js("return window.tabula.moves[0]") == "31:8/5,6/5"


def bg_turn(page, rng):
    """A backgammon turn tapped by the side to move: Roll, then a random play of the roll."""
    page.click("button", "roll")
    st = page.wait(lambda s: s["dice"], "the roll")
    before = st["plies"]
    for kind, name in clicks("backgammon", rng.choice(st["legal"])):
        page.click(kind, name)
    page.wait(lambda s: s["plies"] > before, "the play")


def save_match(page, folder):
    """Taps `Save match (.mat)`: the text the page made (window.tabula.savedMat), which must
    also be the file the browser downloaded."""
    page.js("window.tabula.savedMat = null")
    page.button("savemat")
    text = page.js("return window.tabula.savedMat")
    assert text, "Save match wrote nothing"
    path = os.path.join(folder, "match.mat")
    end = time.time() + 10
    while not os.path.exists(path):
        assert time.time() < end, f"no download: {os.listdir(folder)}"
        time.sleep(0.05)
    while True:
        with open(path) as f:
            downloaded = f.read()
        if downloaded == text or time.time() > end:
            break
        time.sleep(0.05)  # still being written
    assert downloaded == text, f"downloaded {downloaded!r}, page {text!r}"
    os.remove(path)
    return text


def mat_show(path):
    """`backgammon-mat show`: every action of the file's games replayed with the rules."""
    out = subprocess.run([os.path.join(BIN, "backgammon-mat"), "show", path],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"backgammon-mat show {path}: {out.stderr.strip()}"
    return out.stdout


def check_match_file(page):
    """`Save match (.mat)`: absent in a money game and at a pasted position; in a 3-point
    match with the cube (Black doubles and White drops; then White doubles, Black takes and
    redoubles, White takes, and the engines play that game, which ends the match) the saved
    text is read back by `backgammon-mat` (every action replayed with the rules, each `Wins`
    against the result) with the page's games, actions, results and final score, written
    again by it byte for byte the same (`backgammon-mat copy`); a save during a game holds
    that game without a `Wins` line; GNU Backgammon imports and exports the match unchanged."""
    started = time.time()
    folder = tempfile.mkdtemp(prefix="web-e2e-mat-")
    try:
        page.d.execute_cdp_cmd("Browser.setDownloadBehavior",
                               {"behavior": "allow", "downloadPath": folder})
        saver = page.d.find_element(By.ID, "savemat")
        page.setup("backgammon", {"cube": "on"})
        assert not saver.is_displayed(), "Save match in a money game"
        opts = ordered(page, "backgammon", {"cube": "on", "match": "3"})
        page.setup("backgammon", opts)
        assert saver.is_displayed(), "no Save match in a match"
        assert not saver.is_enabled(), "Save match before anything is played"
        rng = random.Random(3)
        games, score = [], [0, 0]

        def finished(st):
            words = st["result"].split()
            points = int(words[words.index("points") + 1]) if "points" in words else 1
            score[0 if words[0] == "white" else 1] += points
            games.append((page.js("return window.tabula.moves"), words[0], points))

        def next_game():
            page.choose("white", "human")
            page.choose("black", "human")
            page.button("nextgame")
            want = f"score={score[0]}-{score[1]}"
            page.wait(lambda s: s["line"] == 0 and s["result"] == "none" and want in s["fen"],
                      f"the next game at {want}")

        # Game 1: White's opening, then Black doubles and White drops.
        bg_turn(page, rng)
        assert saver.is_enabled(), "Save match disabled after a play"
        page.click("button", "double")
        page.wait(lambda s: s["offered"], "Black's double")
        page.click("button", "drop")
        finished(page.wait(lambda s: s["result"] != "none", "White's drop"))
        next_game()
        # Game 2: a turn each (saved: game 2 in progress), White doubles, Black takes, White
        # plays, Black redoubles to 4 and White takes: the game decides the match.
        bg_turn(page, rng)
        bg_turn(page, rng)
        partial = save_match(page, folder)
        assert partial.count(" Game ") == 2 and partial.count("Wins") == 1, partial
        # backgammon-mat reads a match in progress too: game 1 finished, game 2 in play.
        in_play = os.path.join(folder, "partial.mat")
        with open(in_play, "w") as f:
            f.write(partial)
        out = subprocess.run([os.path.join(BIN, "backgammon-mat"), "check", in_play],
                             capture_output=True, text=True, timeout=60)
        want = f"3 point match, 1 games and one in play, White {score[0]} - {score[1]} Black"
        assert out.returncode == 0 and want in out.stdout, f"{out.stdout}{out.stderr}{partial}"
        for side in ("White", "Black"):
            if side == "Black":
                bg_turn(page, rng)
            before = page.state()["plies"]
            page.click("button", "double")
            page.wait(lambda s: s["offered"], f"{side}'s double")
            page.click("button", "take")
            page.wait(lambda s: not s["offered"] and s["plies"] == before + 2, "the take")
        page.choose("white", "novice")
        page.choose("black", "novice")
        finished(page.wait(lambda s: s["result"] != "none", "the end of game 2", 300))
        assert max(score) >= 3, f"a cube of 4 at {score} did not end the match"
        # The banner is drawn by the render after the state the wait saw: give it a moment.
        end = time.time() + 5
        while "wins the match" not in page.text("banner") and time.time() < end:
            time.sleep(0.02)
        banner = page.text("banner")
        assert f"match {score[0]}-{score[1]}" in banner and "wins the match" in banner, (
            f"{page.size}: banner {banner!r} at {page.state()}")
        assert not page.d.find_element(By.ID, "nextgame").is_displayed()
        text = save_match(page, folder)
        assert text.startswith(partial.rstrip("\n") + "\n"), "the saved games changed"
        mat = os.path.join(folder, "page.mat")
        with open(mat, "w") as f:
            f.write(text)
        out = subprocess.run([os.path.join(BIN, "backgammon-mat"), "check", mat],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, f"backgammon-mat check: {out.stderr.strip()}\n{text}"
        want = f"3 point match, {len(games)} games, White {score[0]} - {score[1]} Black"
        assert want in out.stdout, f"{out.stdout.strip()}, expected {want}"
        # The page's layout is the engine's own (matfile.rs `write`), byte for byte.
        copy = os.path.join(folder, "copy.mat")
        subprocess.run([os.path.join(BIN, "backgammon-mat"), "copy", mat, copy], check=True,
                       timeout=60)
        with open(copy) as f:
            rewritten = f.read()
        assert rewritten == text, f"backgammon-mat copy:\n{rewritten}\npage:\n{text}"
        # Every action as the page played it (the sides take turns, White first).
        lines = ["match 3"]
        for k, (moves, winner, points) in enumerate(games, 1):
            lines += [f"game {k} {('white', 'black')[i % 2]} {m}" for i, m in enumerate(moves)]
            lines.append(f"game {k} wins {winner} {points}")
        shown = mat_show(mat)
        assert shown == "\n".join(lines) + "\n", f"backgammon-mat show:\n{shown}\npage:\n{lines}"
        # Through GNU Backgammon (scripts/gnubg-debian.sh installs Debian's when missing).
        gnubg = subprocess.run(["bash", os.path.join(ROOT, "scripts", "gnubg-debian.sh")],
                               capture_output=True, text=True)
        through = "skipped (no gnubg)"
        if gnubg.returncode == 0:
            back = os.path.join(folder, "gnubg.mat")
            subprocess.run([gnubg.stdout.strip(), "-t", "-q", "-r"], capture_output=True,
                           input=f"import mat {mat}\nexport match mat {back}\n", text=True,
                           timeout=120, env=dict(os.environ, HOME=folder))
            assert os.path.exists(back), "GNU Backgammon exported nothing"
            assert mat_show(back) == shown, f"GNU Backgammon's copy differs:\n{mat_show(back)}"
            through = "the same after GNU Backgammon's import and export"
        # A position string pasted in a match (even a match's start) leaves the match.
        page.choose("white", "human")
        page.choose("black", "human")
        paste(page, "fen", "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening match=3 score=0-0")
        assert not saver.is_displayed(), "Save match after a pasted position"
        actions = sum(len(moves) for moves, _, _ in games)
        print(f"web-e2e: {page.size}: match file: {len(games)} games, {actions} actions, "
              f"{score[0]}-{score[1]}, read back by backgammon-mat, {through} "
              f"({time.time() - started:.1f} s)", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def paste(page, field, text):
    box = page.d.find_element(By.ID, field)
    if not box.is_displayed():
        page.d.find_element(By.CSS_SELECTOR, "#tools summary").click()
    box.clear()
    box.send_keys(text)
    page.button("set" + field)
    page.wait(lambda s: s["fen"] == text if field == "fen" else True, f"the pasted {field}")


def check_analysis(page):
    """The analysis pane: three lines, the evaluation bar and the best move on the board;
    gone once the position changes (no stale advice)."""
    page.setup("bombardment", {"size": "6"})
    page.choose("lines", "3")
    page.button("analyse")
    end = time.time() + 20
    while not (len(page.d.find_elements(By.CSS_SELECTOR, "#analysis li")) == 3 and
               page.d.find_elements(By.CSS_SELECTOR, "#board .arrow-pv1") and
               page.d.find_element(By.ID, "evalbar").is_displayed()):
        assert time.time() < end, "no analysis shown"
        time.sleep(0.05)
    assert "for White" in page.text("evaltext")
    time.sleep(0.5)
    page.shot("analysis")
    page.button("stop")
    page.wait(lambda s: not s["searching"], "the analysis to stop")
    st = page.state()
    page.click("point", "a2")
    page.click("point", "a3")
    page.wait(lambda s: s["plies"] == 1, "a move")
    assert not page.d.find_elements(By.CSS_SELECTOR, "#analysis li"), "stale analysis lines"
    assert not page.d.find_elements(By.CSS_SELECTOR, "#board .arrow-pv1"), "stale arrow"


def check_tools(page):
    """Pasted move lists and position strings, take-back, and errors shown to the user."""
    page.setup("morris", {})
    paste(page, "moves", "d2 d6 f4")
    st = page.wait(lambda s: s["plies"] == 3, "the pasted moves")
    assert st["fen"] == engine("morris", "", ["d2", "d6", "f4"])[0], st["fen"]
    page.button("takeback")
    st = page.wait(lambda s: s["plies"] == 2 and s["line"] == 2, "the take-back")
    assert st["fen"] == engine("morris", "", ["d2", "d6"])[0], st["fen"]
    # Flip: the drawing turns half a turn, its texts stay upright; again: back.
    page.button("flip")
    view = page.d.find_element(By.CSS_SELECTOR, "#board > g")
    assert (view.get_attribute("transform") or "").startswith("rotate(180"), "not flipped"
    page.button("flip")
    view = page.d.find_element(By.CSS_SELECTOR, "#board > g")
    assert not view.get_attribute("transform"), "still flipped"
    check_clock(page)
    page.setup("morris", {})
    paste(page, "moves", "d2 d6")
    # A refused position string is explained and stays in its field for correcting.
    box = page.d.find_element(By.ID, "fen")
    box.clear()
    box.send_keys("not a position")
    page.button("setfen")
    wait_text(page, "Bad position")
    assert not page.text("error").startswith("error"), page.text("error")
    page.wait(lambda s: s["plies"] == 2, "the old position back")
    assert box.get_attribute("value") == "not a position", box.get_attribute("value")
    box = page.d.find_element(By.ID, "command")
    box.clear()
    box.send_keys("frobnicate\n")
    wait_text(page, "Unknown command: frobnicate")
    page.js("ws.send('fen\\nquit')")  # a forged message (two lines in one frame)
    wait_text(page, "Rejected by the server")


def check_clock(page):
    """A time control: an engine game under it ends by the rules (the engine is told the
    clocks); a human's clock that runs out loses on time."""
    page.choose("tc", "3+2")
    page.setup("bombardment", {"size": "5"}, "beginner", "beginner")
    page.wait(lambda s: s["result"] != "none", "the end of a game under a clock")
    check_end(page, "bombardment", {"size": "5"})
    assert not page.js("return C.flagged"), "a flag in a 3-minute game of a few plies"
    page.choose("tc", "1+0")
    page.setup("morris", {})
    # One minute is long for a test: White's clock is set to 0.3 s left.
    page.js("C.left.w = 300; C.since = Date.now();")
    end = time.time() + 10
    while "Black wins on time" not in page.text("banner"):
        assert time.time() < end, f"no loss on time: {page.text('banner')!r}"
        time.sleep(0.05)
    assert not page.d.find_elements(By.CSS_SELECTOR, "#board .hit.target"), "moves after a flag"
    page.choose("tc", "0")


def wait_text(page, text, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if text in page.text("error"):
            return
        time.sleep(0.02)
    raise AssertionError(f"no {text!r} shown; shown: {page.text('error')!r}")


def children(pid):
    """Processes whose parent is pid (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    out.append(int(entry))
            except OSError:
                pass
    return out


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(l.split()[1] for l in f if l.startswith("VmRSS:")))


def sessions(page, server_pid):
    """Opens and closes SESSIONS browser sessions; no engine may outlive its page."""
    first = page.d.current_window_handle
    page.d.switch_to.new_window("tab")
    page.d.get(page.url)
    page.wait(lambda s: s["fen"], "a session in a second tab")
    assert len(children(server_pid)) == 2, children(server_pid)
    page.d.close()
    page.d.switch_to.window(first)
    end = time.time() + 10
    while len(children(server_pid)) != 1:
        assert time.time() < end, f"the closed tab's engine is still there: {children(server_pid)}"
        time.sleep(0.05)
    rss_before = rss_kib(server_pid)
    start = time.time()
    for _ in range(SESSIONS):
        page.d.get(page.url)
        page.wait(lambda s: s["fen"], "a session")
    page.d.get("about:blank")
    end = time.time() + 10
    while children(server_pid) and time.time() < end:
        time.sleep(0.05)
    left = children(server_pid)
    rss_after = rss_kib(server_pid)
    print(f"web-e2e: {SESSIONS} browser sessions in {time.time() - start:.1f} s; engine processes "
          f"left: {len(left)}; server RSS {rss_before} KiB before, {rss_after} KiB after", flush=True)
    assert not left, f"engine processes left behind: {left}"


def browser(size):
    w, h, mobile = ALL_SIZES[size]
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", f"--window-size={w},{h}"]:
        opts.add_argument(arg)
    if mobile:
        opts.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": w, "height": h, "pixelRatio": 2.0, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 "
                         "(KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=opts, service=Service("/usr/bin/chromedriver"))


def run_size(size, port, server_pid):
    """Everything at one screen size; returns (games played, option sets)."""
    driver = browser(size)
    played = 0
    try:
        page = Page(driver, f"http://localhost:{port}/", size)
        driver.get(page.url)
        page.wait(lambda s: s["fen"], "the first session")
        width = page.js("return document.documentElement.scrollWidth")
        assert width <= SIZES[size][0], f"{size}: the page scrolls sideways ({width} px)"
        rng = random.Random(17)
        sets = 0
        for game in GAMES:
            started = time.time()
            n, result, tapped = play_tapped(page, game, rng)
            played += 1
            line = [f"{game} tapped {tapped}: {n} plies {result}"]
            # The other option values are shared out between the sizes (each played once).
            others = option_sets(page, game)[1:]
            k = list(SIZES).index(size)
            for opts in others[k::len(SIZES)]:
                opts = ordered(page, game, opts)
                n, result = play_watched(page, game, opts)
                played += 1
                sets += 1
                line.append(f"{' '.join(f'{k}={v}' for k, v in opts.items())}: {n} {result}")
            errors = page.console_errors()
            assert not errors, f"{size} {game}: console errors {errors}"
            print(f"web-e2e: {size}: {game} {time.time() - started:.1f} s: " + "; ".join(line),
                  flush=True)
            # The page at this size must never scroll sideways.
            width = page.js("return document.documentElement.scrollWidth")
            assert width <= SIZES[size][0], f"{size} {game}: the page scrolls sideways ({width} px)"
        check_catalog(page)
        n, result = play_generic(page, rng)
        played += 1
        print(f"web-e2e: {size}: {GENERIC} through the generic view: {n} plies {result}",
              flush=True)
        check_prompts(page)
        # The match file once, at the first size (the desktop's: the phone's emulation is
        # the slower, and ends last).
        if "backgammon" in GAMES and size == list(SIZES)[0]:
            check_match_file(page)
        check_analysis(page)
        check_tools(page)
        errors = [e for e in page.console_errors() if "frobnicate" not in e["message"]]
        assert not errors, f"{size}: console errors {errors}"
        return played, sets
    finally:
        driver.quit()


def run_sessions(port, server_pid):
    """The session checks, once the other browsers are gone (they count engine processes)."""
    driver = browser("desktop")
    try:
        page = Page(driver, f"http://localhost:{port}/", "desktop")
        driver.get(page.url)
        page.wait(lambda s: s["fen"], "the first session")
        sessions(page, server_pid)
    finally:
        driver.quit()


def main():
    os.makedirs(SHOTS, exist_ok=True)
    server = subprocess.Popen([os.path.join(BIN, "web-board"), "--port", "0", "--engine",
                               os.path.join(BIN, "tabula"), "--max-sessions", "4"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    started = time.time()
    done, failures = {}, []

    # The sizes run at once, each in its own browser and session (two cores: about twice as
    # fast as one after the other).
    def one(size):
        try:
            t = time.time()
            done[size] = run_size(size, port, server.pid)
            print(f"web-e2e: {size}: {done[size][0]} games to the end ({len(GAMES)} games, "
                  f"{done[size][1]} other option values), prompts, analysis, tools: 0 console "
                  f"errors, {time.time() - t:.1f} s", flush=True)
        except BaseException as e:  # reported below, after the other size has finished
            failures.append((size, e))
            traceback.print_exc()

    try:
        port = re.search(r":(\d+)", server.stdout.readline()).group(1)
        threads = [threading.Thread(target=one, args=(size,)) for size in SIZES]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if failures:
            raise AssertionError(f"failed at {', '.join(size for size, _ in failures)}")
        run_sessions(port, server.pid)
        total = sum(p for p, _ in done.values())
        option_values = sum(s for _, s in done.values())
    finally:
        server.terminate()
        server.wait()
    print(f"web-e2e: {total} games ({len(GAMES)} games at {len(SIZES)} sizes, {option_values} "
          f"other option values) in {time.time() - started:.1f} s; passed, 0 failed")


if __name__ == "__main__":
    main()
