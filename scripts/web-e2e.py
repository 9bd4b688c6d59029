#!/usr/bin/env python3
"""End-to-end test of the web board in a real headless Chromium (docs/web.md).

Starts `web-board` on a free port, plays one full game of each of the five games in the page
(White's moves clicked on the board, Black the engine; backgammon's later turns in the page's
watch mode), checks each final position string and result against a fresh engine that replays
the page's move list, saves a screenshot of each board to docs/web/GAME.png, checks that
errors reach the user, then opens and closes 100 browser sessions and checks that no engine
process is left behind. Usage: web-e2e.py BIN_DIR (holding tabula and web-board).
"""
import os
import random
import re
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, "docs", "web")
GAMES = ["gipf", "bombardment", "cascades", "morris", "backgammon"]
MAX_PLIES = 600          # no game of these may last longer against the engine
BACKGAMMON_CLICKED = 6   # White's backgammon turns clicked before the page watches
SESSIONS = 100


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
    raise ValueError(game)


def engine_replay(game, moves):
    """The position string and result a fresh engine gives for the page's move list."""
    script = f"newgame {game}\nposition startpos moves {' '.join(moves)}\nfen\nresult\n"
    out = subprocess.run([os.path.join(BIN, "tabula")], input=script, capture_output=True,
                         text=True, timeout=60).stdout.splitlines()
    fen = next(l[4:] for l in out if l.startswith("fen "))
    result = next(l[7:] for l in out if l.startswith("result "))
    return fen, result


class Page:
    """The board page in the browser."""

    def __init__(self, driver, url):
        self.d = driver
        self.url = url

    def state(self):
        return self.d.execute_script(
            "const S = window.tabula; return S.st ? {side: S.st.side, searching: S.searching, "
            "result: S.result, plies: S.moves.length, legal: S.legal, dice: S.st.dice || null, "
            "fen: S.fen, busy: waiters.length > 0} : null;")

    def wait(self, cond, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            st = self.state()
            if st and not st["busy"] and cond(st):
                return st
            time.sleep(0.02)
        raise AssertionError(f"timed out waiting for {what}: {self.state()}")

    def click(self, kind, name):
        if kind == "point":
            sel = f'#board [data-point="{name}"]'
        else:
            sel = f'#choices button[data-token="{name}"]'
        self.d.find_element(By.CSS_SELECTOR, sel).click()

    def choose(self, select_id, value):
        Select(self.d.find_element(By.ID, select_id)).select_by_value(value)

    def error(self):
        return self.d.find_element(By.ID, "error").text


def play_game(page, game, rng):
    page.choose("white", "human")
    page.choose("black", "human")
    page.choose("game", game)
    page.d.find_element(By.ID, "newgame").click()
    page.wait(lambda s: s["plies"] == 0 and s["result"] == "none" and s["fen"] and
              page.d.execute_script("return window.tabula.game") == game, "the new game")
    page.d.find_element(By.ID, "movetime").clear()
    page.d.find_element(By.ID, "movetime").send_keys("20")
    page.choose("black", "engine")
    clicked = 0
    shot = False
    while True:
        st = page.wait(lambda s: s["result"] != "none" or (s["side"] == "w" and not s["searching"]),
                       "White's turn or the end")
        if st["result"] != "none":
            break
        assert st["plies"] < MAX_PLIES, f"{game}: no end after {MAX_PLIES} plies"
        if game == "backgammon" and clicked >= BACKGAMMON_CLICKED:
            page.choose("white", "engine")  # watch mode: the engine plays both sides
            page.wait(lambda s: s["result"] != "none", "the end of the watched game", 300)
            break
        if game == "backgammon" and not st["dice"] and "double" not in st["legal"] and \
                not any(m in ("take", "drop") for m in st["legal"]):
            page.click("button", "roll")
            st = page.wait(lambda s: s["dice"], "the roll")
        if not shot and st["plies"] >= 6:
            page.d.find_element(By.ID, "board").screenshot(os.path.join(SHOTS, f"{game}.png"))
            shot = True
        move = rng.choice(st["legal"])
        before = st["plies"]
        for kind, name in clicks(game, move):
            page.click(kind, name)
        if page.state()["plies"] == before:
            page.click("button", "play")  # a move that longer moves start with (Cascades)
        st = page.wait(lambda s: s["plies"] > before, f"{move} to be played")
        played = page.d.execute_script("return window.tabula.moves[%d]" % before)
        assert played == move, f"{game}: clicked {move}, the page played {played}"
        clicked += 1
    st = page.state()
    moves = page.d.find_element(By.ID, "moves").get_attribute("value").split()
    fen = page.d.find_element(By.ID, "fen").get_attribute("value")
    want_fen, want_result = engine_replay(game, moves)
    assert fen == want_fen, f"{game}: page {fen!r}, engine {want_fen!r}"
    assert st["result"] == want_result != "none", f"{game}: {st['result']} vs {want_result}"
    shown = page.d.find_element(By.ID, "status").text
    assert want_result in shown, f"{game}: status {shown!r}"
    if not shot:
        page.d.find_element(By.ID, "board").screenshot(os.path.join(SHOTS, f"{game}.png"))
    print(f"web-e2e: {game}: {len(moves)} plies ({clicked} clicked), {want_result}", flush=True)


def check_tools(page):
    """Move lists and position strings pasted, undo, and analysis drawn on the board."""
    page.choose("white", "human")
    page.choose("black", "human")
    page.choose("game", "morris")
    page.d.find_element(By.ID, "newgame").click()
    page.wait(lambda s: s["plies"] == 0 and s["fen"].endswith(" w 9 9 0"), "a new Morris game")
    box = page.d.find_element(By.ID, "moves")
    box.clear()
    box.send_keys("d2 d6 f4")
    page.d.find_element(By.ID, "setmoves").click()
    st = page.wait(lambda s: s["plies"] == 3, "the pasted moves")
    assert st["fen"] == engine_replay("morris", ["d2", "d6", "f4"])[0], st["fen"]
    page.d.find_element(By.ID, "undo").click()
    st = page.wait(lambda s: s["plies"] == 2, "the undo")
    assert st["fen"] == engine_replay("morris", ["d2", "d6"])[0], st["fen"]
    copied = st["fen"]
    page.d.find_element(By.ID, "newgame").click()
    page.wait(lambda s: s["fen"] != copied, "a new game")
    box = page.d.find_element(By.ID, "fen")
    box.clear()
    box.send_keys(copied)
    page.d.find_element(By.ID, "setfen").click()
    page.wait(lambda s: s["fen"] == copied and s["plies"] == 0, "the pasted position")
    page.d.find_element(By.ID, "analyse").click()
    end = time.time() + 20
    while not (page.d.find_elements(By.CSS_SELECTOR, "#board .arrow-pv1") and
               "depth" in page.d.find_element(By.ID, "analysis").text):
        assert time.time() < end, "no analysis shown"
        time.sleep(0.05)
    page.d.find_element(By.ID, "stop").click()
    page.wait(lambda s: not s["searching"], "the analysis to stop")


def check_errors(page):
    """Errors from the engine and from the server reach the user."""
    box = page.d.find_element(By.ID, "command")
    box.clear()
    box.send_keys("frobnicate\n")
    page_wait_text(page, "error unknown command: frobnicate")
    # A forged message (two lines in one frame) from the page's own socket.
    page.d.execute_script("ws.send('fen\\nquit')")
    page_wait_text(page, "error rejected by the server")
    fen = page.d.find_element(By.ID, "fen")
    fen.clear()
    fen.send_keys("not a position")
    page.d.find_element(By.ID, "setfen").click()
    page_wait_text(page, "error ")
    page.wait(lambda s: s["fen"], "the old position back")


def page_wait_text(page, text, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if text in page.error():
            return
        time.sleep(0.02)
    raise AssertionError(f"no {text!r} shown; shown: {page.error()!r}")


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
    # A second tab, closed: its engine goes, the first tab's stays.
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


def main():
    os.makedirs(SHOTS, exist_ok=True)
    server = subprocess.Popen([os.path.join(BIN, "web-board"), "--port", "0", "--engine",
                               os.path.join(BIN, "tabula"), "--max-sessions", "4"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = re.search(r":(\d+)", server.stdout.readline()).group(1)
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1100,1000"]:
            opts.add_argument(arg)
        driver = webdriver.Chrome(options=opts, service=Service("/usr/bin/chromedriver"))
        try:
            page = Page(driver, f"http://localhost:{port}/")
            driver.get(page.url)
            page.wait(lambda s: s["fen"], "the first session")
            started = time.time()
            rng = random.Random(17)
            for game in GAMES:
                play_game(page, game, rng)
            check_tools(page)
            check_errors(page)
            print(f"web-e2e: five games, tools and errors in {time.time() - started:.1f} s", flush=True)
            sessions(page, server.pid)
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait()
    # The plain closing line test runners print: five games, the tools, the errors, the sessions.
    print(f"web-e2e: {len(GAMES) + 3} passed, 0 failed")


if __name__ == "__main__":
    main()
