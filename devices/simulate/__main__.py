"""Command line: run one simulated device until interrupted."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys

from devices.simulate import FAULTS, PROTOCOL_SIMULATORS, SIMULATORS, open_end


def house_blackjack(path: str | None):
    """The blackjack the floor's config plays ([rules.blackjack], [house] blackjack_decks; FLOOR_CONFIG
    and FLOOR_* as for the floor itself), so a self-dealing scanner deals the house's game."""
    from config import load_config
    from floor.rounds import table_rules
    from floor.settings import HouseSettings
    environ = {**os.environ, "FLOOR_SECRET_KEY": os.environ.get("FLOOR_SECRET_KEY") or "unused"}   # it signs nothing
    cfg = load_config(path, environ)
    house = table_rules.configured(HouseSettings.from_mapping(cfg["house"]), cfg.get("rules"))
    return table_rules.table_rules(house).blackjack, house.blackjack_decks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m devices.simulate", description=__doc__)
    ap.add_argument("kind", choices=sorted(SIMULATORS))
    ap.add_argument("--port", default="pty",
                    help='"pty" (default): open a pseudo-terminal; otherwise a pyserial URL to write to')
    ap.add_argument("--link", help="symlink pointed at the pty slave (like /dev/serial/by-id/…)")
    ap.add_argument("--seed", type=int, help="random seed: same seed, same numbers and cards")
    ap.add_argument("--speed", type=float, default=1.0, help="divide every delay by this")
    ap.add_argument("--fault", action="append", default=[], choices=FAULTS,
                    help="a fault to repeat every --fault-every rounds (repeatable)")
    ap.add_argument("--fault-every", type=int, default=5)
    ap.add_argument("--unplug-s", type=float, default=2.0, help="how long an unplug lasts")
    ap.add_argument("--baudrate", type=int, default=9600, help="line speed for a URL port")
    ap.add_argument("--line-speed", type=int, help="wrong_speed: the speed the device sends at "
                                                   "(default: twice its kind's)")
    ap.add_argument("--line-framing", default="8N1", help="wrong_speed: the device's framing (8N1, 8E1, 7E1...)")
    ap.add_argument("--host-baudrate", type=int, help="wrong_speed: the speed the host listens at "
                                                      "(default: the kind's)")
    ap.add_argument("--bcc-includes-start", action="store_true", help="shoe: XOR ENQ into the BCC")
    ap.add_argument("--game", choices=("blackjack", "holdem"), default="blackjack", help="scanner")
    ap.add_argument("--seats", type=int, default=3, help="scanner: seats dealt")
    ap.add_argument("--bias", action="append", default=[], metavar="POCKET:WEIGHT",
                    help="wheel: weight a pocket (1 is fair), e.g. --bias 17:2 (repeatable)")
    ap.add_argument("--same-direction", action="store_true", help="wheel: the rotor never changes direction")
    ap.add_argument("--protocol", choices=sorted(PROTOCOL_SIMULATORS),
                    help="another line format of the kind: wheel-number-v1, a winning-number-only wheel")
    ap.add_argument("--spin-s", type=float, default=30.0, help="wheel-number-v1: seconds between spins")
    ap.add_argument("--copies", type=int, default=1, help="wheel-number-v1: copies of each result line")
    ap.add_argument("--config", help="scanner: the floor's config file whose blackjack rules it deals by "
                                     "(default: FLOOR_CONFIG, else the embedded default)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(message)s")

    kw = dict(seed=args.seed, speed=args.speed, faults=args.fault, fault_every=args.fault_every,
              unplug_s=args.unplug_s, line_speed=args.line_speed, line_framing=args.line_framing,
              host_baudrate=args.host_baudrate)
    if args.kind == "shoe":
        kw["bcc_includes_start"] = args.bcc_includes_start
    if args.kind == "wheel":
        try:
            kw["bias"] = {int(p): float(w) for p, w in (b.split(":") for b in args.bias)}
        except ValueError:
            ap.error("--bias is POCKET:WEIGHT, e.g. 17:2")
        kw["alternate"] = not args.same_direction
    about = ""
    if args.kind == "scanner":
        kw.update(game=args.game, seats=args.seats)
        if args.game == "blackjack":
            rules, decks = house_blackjack(args.config)
            kw.update(rules=rules, decks=decks)
            about = f" (blackjack, {decks} decks, dealer {'hits' if rules.dealer_hits_soft_17 else 'stands on'} soft 17)"
    cls = SIMULATORS[args.kind]
    if args.protocol:
        cls = PROTOCOL_SIMULATORS[args.protocol]
        if cls.kind != args.kind:
            ap.error(f"--protocol {args.protocol} is a {cls.kind}'s line format")
        kw.update(spin_s=args.spin_s, copies=args.copies)
    end = open_end(args.port, args.link, args.baudrate)
    sim = cls(end, **kw)
    print(f"{args.kind} simulator on {end.path}{about}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sim.stop(timeout=0))
    try:
        sim.run_forever()
    except KeyboardInterrupt:
        pass
    finally:
        sim._stop.set()
        end.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
