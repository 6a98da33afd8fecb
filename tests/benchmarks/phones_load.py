"""Load clients of the phones bench, in a process of their own: ``python -m tests.benchmarks.phones_load
SPEC`` (JSON: url, api (the pages-and-API process), token, table_id, phones [[pass token, game_id],
...], staff N).

Real Socket.IO clients (python-socketio's asyncio client, websocket transport): each phone connected
as the pass page connects (the pass's token in the auth payload), so in its pass's room only, noting
when each new state of its list reaches it and the place it says (what the phone shows). It does what
static/js/pass.js does: a state sent to it is drawn as it comes; an update that carries no state (as
the feed sent before it pushed them) is followed by the page's GET of its state from the API process,
and the state counts when that answer arrives, so the bench measures what a phone shows either way;
each staff client with the floor's token, joined to the wheel's table, noting when each wheel number
reaches it. Prints ``ready`` once all are connected; at the end of stdin, a JSON report (arrival times
on the machine's monotonic clock, which every process shares) and disconnects."""
from __future__ import annotations

import asyncio
import json
import sys
import time

import aiohttp
import socketio

BATCH = 20   # clients connecting at once
CONNECT_S = 45   # a client that has no answer by then never connected


async def main(spec: dict) -> None:
    url, t0 = spec["url"], time.monotonic()
    dropped: list[float] = []
    clients: list[socketio.AsyncClient] = []
    phones: dict[str, list[list[float]]] = {}
    staff: list[list[float]] = []

    received = [0]   # every update any client got (the measured ones and all the others)

    def count(*_) -> None:
        received[0] += 1

    def client() -> socketio.AsyncClient:
        c = socketio.AsyncClient(reconnection=False)
        c.on("*", count, namespace="/live")
        c.on("disconnect", lambda *_: dropped.append(round(time.monotonic() - t0, 1)), namespace="/live")
        clients.append(c)
        return c

    http: list[aiohttp.ClientSession] = []
    places: dict[str, int | None] = {}      # each phone's place as it last showed it (None: ended)
    asked = [0]                             # states fetched from the API (an update without one)

    def shown(token: str, mine: list[float], state: dict) -> None:
        mine.append(time.monotonic())
        places[token] = state["lists"][0]["place"] if state.get("lists") else None

    async def phone(token: str, game_id: int) -> None:
        c, mine = client(), []
        phones.setdefault(str(game_id), []).append(mine)
        if not http:
            http.append(aiohttp.ClientSession())

        latest = [0, 0]   # the newest GET asked, and the newest shown: an older answer is not drawn

        async def changed(state=None) -> None:
            count()
            if not (isinstance(state, dict) and ("lists" in state or "error" in state)):
                asked[0] += 1
                latest[0] += 1
                n = latest[0]
                async with http[0].get(f"{spec['api']}/api/pass/{token}") as resp:
                    state = await resp.json()
                if n < latest[1]:
                    return
                latest[1] = n
            shown(token, mine, state)
        c.on("pass.changed", changed, namespace="/live")
        await c.connect(url, namespaces=["/live"], auth={"pass": token}, transports=["websocket"],
                        wait_timeout=30)

    async def staff_client() -> None:
        c, mine = client(), []
        staff.append(mine)
        c.on("device.wheel.number", lambda data: (mine.append(time.monotonic()), count()), namespace="/live")
        await c.connect(url, namespaces=["/live"], auth={"token": spec["token"]}, transports=["websocket"],
                        wait_timeout=30)
        await c.call("join_table", {"table_id": spec["table_id"]}, namespace="/live", timeout=30)

    failed: list[str] = []

    async def guarded(job) -> None:
        try:
            # a process out of threads takes the connection and never answers the upgrade
            await asyncio.wait_for(job, CONNECT_S)
        except Exception as exc:   # counted: a client that never connected is a client dropped
            failed.append(f"{type(exc).__name__}: {exc}"[:200])

    jobs = [phone(e, g) for e, g in spec["phones"]] + [staff_client() for _ in range(spec["staff"])]
    for i in range(0, len(jobs), BATCH):
        await asyncio.gather(*(guarded(j) for j in jobs[i:i + BATCH]))
    print("ready", flush=True)
    # then one line: how many wheel numbers and list changes were sent; what is still on its way is
    # waited for (30 s at most: what has not come by then is missed)
    sent = json.loads(await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline))
    deadline = time.monotonic() + 30

    def complete() -> bool:
        return (all(len(mine) >= sent["spins"] for mine in staff)
                and all(len(mine) >= sent["changes"].get(game, 0) for game, lists in phones.items() for mine in lists))
    while not complete() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    print(json.dumps({"dropped": len(dropped), "dropped_at_s": sorted(dropped)[:5],
                      "connected": sum(c.connected for c in clients), "clients": len(clients),
                      "failed": len(failed), "received": received[0], "failed_why": sorted(set(failed))[:3],
                      "phones": phones, "places": places, "asked": asked[0], "staff": staff}), flush=True)
    await asyncio.gather(*(c.disconnect() for c in clients if c.connected))
    for h in http:
        await h.close()


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
