"""The deployment files under config/ start what exists, with settings the loader accepts."""
from __future__ import annotations

import configparser
import itertools
import re
import shlex
from pathlib import Path

from config import load_config

ROOT = Path(__file__).resolve().parent.parent
UNITS = ROOT / "config" / "systemd"


def _unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    n = itertools.count()   # repeated keys (Environment=, Wants=) are several settings in systemd
    parser.read_string(re.sub(r"^(Environment|Wants)=", lambda m: f"{m.group(1)}.{next(n)}=", path.read_text(),
                              flags=re.M))
    return parser


def _env(parser) -> dict[str, str]:
    env = {}
    for key, value in parser["Service"].items():
        if key.startswith("Environment."):
            for pair in shlex.split(value):
                name, _, val = pair.partition("=")
                env[name] = val.replace("%i", "8001")
    return env


def test_every_unit_runs_an_existing_command_with_valid_settings(app):
    runner = app.test_cli_runner()
    services = sorted(UNITS.glob("*.service"))
    assert {p.name for p in services} == {"floorman-web@.service", "floorman-live@.service", "floorman-scheduler.service",
                                          "floorman-devices.service", "floorman-migrate.service"}
    for path in services:
        unit = _unit(path)
        env = _env(unit)
        assert env.pop("FLOOR_CONFIG") == "/etc/floorman/production.toml"
        # the settings the unit sets, over the shipped example, are all known to the loader
        load_config(ROOT / "config" / "production.example.toml",
                    environ={**env, "FLOOR_SECRET_KEY": "x" * 64})
        argv = shlex.split(unit["Service"]["ExecStart"])
        if argv[0].endswith("/python"):
            assert argv[1:] == ["-m", "floor.runtime.serve"]
            assert env["FLOOR_SERVER_PORT"] == "8001"
        else:
            assert argv[0].endswith("/flask") and argv[1] == "floor", argv
            out = runner.invoke(args=[*argv[1:], "--help"])
            assert out.exit_code == 0, (path.name, out.output)


def test_nginx_sends_the_live_feed_and_the_pages_to_the_web_units_the_target_starts():
    target = (UNITS / "floorman.target").read_text()
    live_units = sorted(re.findall(r"floorman-live@(\d+)\.service", target))
    api_units = sorted(re.findall(r"floorman-web@(\d+)\.service", target))
    nginx = (ROOT / "config" / "nginx" / "floorman.conf").read_text()

    def upstream(name: str) -> str:
        start = nginx.index(f"upstream {name} {{")
        return nginx[start:nginx.index("}", start)]

    def routed(location: str) -> str:
        start = nginx.index(f"location {location} {{")
        return re.search(r"proxy_pass http://(\w+);", nginx[start:nginx.index("}", start)]).group(1)

    def servers(block: str) -> list[str]:
        return re.findall(r"server 127\.0\.0\.1:(\d+);", block)

    # each live client sticks to one process (its Socket.IO state lives there), by its whole address (not
    # ip_hash's /24, which sends a floor's whole network to one process); pages and API go apart
    assert routed("/socket.io/") == "floorman_live" and "hash $remote_addr consistent;" in upstream("floorman_live")
    assert "ip_hash" not in upstream("floorman_live")
    assert routed("/") == "floorman_api"
    live, api = servers(upstream("floorman_live")), servers(upstream("floorman_api"))
    assert live == ["8001", "8002"] and api == ["8003"] and not set(live) & set(api)
    assert live == live_units and api == api_units
    # the live feed's processes go before the pages and the API on a busy host, beside the devices
    nice = {unit: int(_unit(UNITS / unit)["Service"].get("Nice", 0))
            for unit in ("floorman-live@.service", "floorman-web@.service", "floorman-devices.service")}
    assert nice["floorman-live@.service"] == nice["floorman-devices.service"] < nice["floorman-web@.service"] == 0
    # a live process holds a socket per client: far more than systemd's default 1024 open files
    assert int(_unit(UNITS / "floorman-live@.service")["Service"]["LimitNOFILE"]) >= 8192
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in nginx and 'Connection "upgrade"' in nginx
    prod = load_config(ROOT / "config" / "production.example.toml", environ={"FLOOR_SECRET_KEY": "x" * 64})
    assert prod["server"]["proxy_hops"] == 1 and prod["app"]["secure_cookies"] is True
