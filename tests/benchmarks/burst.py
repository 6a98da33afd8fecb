"""The bench's burst, in a process of its own: ``python -m tests.benchmarks.burst URLS TOKEN LINK RATE``.

A smart shoe (the simulator, paced by the dealer) on a pty linked at LINK, a dealer at baccarat
table 10 (betting opens, the shoe deals the coup, the floor settles it, again) and players betting
about RATE times a second through the API of the web processes at URLS (comma-separated; each
bettor keeps to one). Kept out of the bench's own process so that its
work does not slow the probe client whose clock measures the live feed. Prints ``{"ready": true}``
once the shoe's line is up; ``go`` on stdin starts the dealer and the bets, ``stop`` ends them and
prints what happened (bets placed and refused, coups settled, errors).
"""
from __future__ import annotations

import json
import sys
import threading
import time

import requests

from devices.simulate.base import PtyEnd
from devices.simulate.shoe import ShoeSimulator

TABLE = 10
PLAYERS = range(1, 9)
BETTING_S = 6.0   # the dealer leaves betting open this long (the bench sets the house's own close later)
BETTORS = 40  # players betting at once, so the rate asked is the rate sent even when an answer takes a second


class Burst:
    def __init__(self, urls: list[str], token: str, shoe: ShoeSimulator, rate: float) -> None:
        self.urls, self.token, self.shoe, self.rate = urls, token, shoe, rate
        self.local = threading.local()   # a requests session per thread
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.placed = self.refused = self.coups = 0
        self.errors: list[str] = []
        self.why: dict[str, int] = {}   # refusals by error code
        self.coup_s: list[float] = []   # from the coup's first card to its settlement
        self.threads = [threading.Thread(target=self._dealer, daemon=True)] + [
            threading.Thread(target=self._bettor, args=(i,), daemon=True) for i in range(BETTORS)]

    def _call(self, method: str, path: str, body=None, web: int = 0):
        http = getattr(self.local, "http", None)
        if http is None:
            http = self.local.http = requests.Session()
            http.headers["Authorization"] = f"Bearer {self.token}"
        resp = http.request(method, self.urls[web % len(self.urls)] + path, json=body, timeout=30)
        if resp.status_code >= 400 and resp.status_code != 409:   # 409: betting closed, a new shoe needed
            self.errors.append(f"{method} {path}: {resp.status_code} {resp.text[:200]}")
        return resp

    def _new_shoe(self) -> None:
        self._call("post", f"/api/tables/{TABLE}/shoe", {})
        self.shoe.confirm()   # the game confirmed to the shoe, as GP 00 does

    def start(self) -> None:
        for player in PLAYERS:   # at the cashier's own limit: more would wait for a second pit boss
            self._call("post", f"/api/cashier/players/{player}/credit", {"amount": 1_000_000})
        self._new_shoe()
        self.began = time.monotonic()
        for t in self.threads:
            t.start()

    def _dealer(self) -> None:
        while not self.stop.is_set():
            resp = self._call("post", f"/api/tables/{TABLE}/round/open", {})
            if resp.status_code == 409:
                self._new_shoe()
                self.stop.wait(0.5)
                continue
            rid = resp.json()["round"]["id"]
            self.stop.wait(BETTING_S)       # players bet
            dealt = time.monotonic()
            self.shoe.deal_coup()           # the shoe's S closes betting; its D and G decide the coup
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                r = self._call("get", f"/api/rounds/{rid}").json()
                if r["status"] in ("settled", "held", "voided"):
                    self.coups += r["status"] == "settled"
                    self.coup_s.append(round(time.monotonic() - dealt, 2))
                    if r["status"] != "settled":
                        self.errors.append(f"coup {rid} {r['status']}: {r.get('held_reason')}")
                    break
                time.sleep(0.1)
            else:
                self.errors.append(f"coup {rid} not settled within 30 s")

    def _bettor(self, first: int) -> None:
        n, next_at = first, time.monotonic()
        while not self.stop.is_set():
            spot = ("player", "banker", "tie", "player_pair")[n % 4]
            resp = self._call("post", f"/api/tables/{TABLE}/bets",
                              {"spot": spot, "amount": 1_000, "player_id": PLAYERS[n % len(PLAYERS)]}, web=first)
            with self.lock:
                if resp.status_code == 201:
                    self.placed += 1
                else:
                    self.refused += 1   # betting closed while the coup is dealt: the request ran all the same
                    why = resp.json().get("error", resp.status_code) if resp.content else resp.status_code
                    self.why[str(why)] = self.why.get(str(why), 0) + 1
            n += BETTORS
            next_at += BETTORS / self.rate
            self.stop.wait(max(0.0, next_at - time.monotonic()))

    def finish(self) -> dict:
        self.stop.set()
        for t in self.threads:
            t.join(40)
        seconds = time.monotonic() - self.began
        return {"placed": self.placed, "refused": self.refused, "coups": self.coups, "seconds": seconds,
                "errors": self.errors[:5], "refusals": self.why, "coup_s": self.coup_s}


def main(argv: list[str]) -> None:
    urls, token, link, rate = argv[0].split(","), argv[1], argv[2], float(argv[3])
    end = PtyEnd(link=link)
    shoe = ShoeSimulator(end, seed=21, speed=10.0, paced=True).start()
    print(json.dumps({"ready": True}), flush=True)
    burst = Burst(urls, token, shoe, rate)
    for line in sys.stdin:
        if line.strip() == "go":
            burst.start()
        elif line.strip() == "stop":
            print(json.dumps(burst.finish()), flush=True)
            break
    shoe.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
