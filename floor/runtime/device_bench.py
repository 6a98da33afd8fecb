"""`flask floor devices check|capture|replay`: the integrator's bench on one port. None of them
touches the database; a device named in the configuration lends its settings (kind, speed, the shoe's
BCC rule, the scanner's prefix and suffix), options override them."""
from __future__ import annotations

import json
import signal
import sys
import threading

import click
import serial
from flask import current_app
from flask.cli import with_appcontext

from devices import capture as cap
from devices.config import DEFAULT_BAUD, KINDS, DeviceConfig
from devices.listen import PtyTarget, capture_port, check_capture, check_port, replay_capture
from devices.uart import parse_line

EXIT_NOT_CONFORMING = 1
EXIT_NO_LINE = 3     # the port or the file could not be read


def _configured(port: str | None) -> dict:
    """The [[devices]] entry named ``port`` or on that port, if any."""
    if not port:
        return {}
    for entry in current_app.config["FLOOR"].get("devices") or []:
        if isinstance(entry, dict) and port in (str(entry.get("name")), str(entry.get("port"))):
            return dict(entry)
    return {}


def _config(port: str, kind: str | None, baudrate: int | None, bcc_includes_start: bool | None,
            protocol: str | None = None) -> DeviceConfig:
    entry = _configured(port)
    kind = kind or entry.get("kind")
    if kind not in KINDS:
        raise click.UsageError(f"say which device this is: --kind {'|'.join(KINDS)} "
                               f"({port!r} is no configured device)")
    entry.update(name=str(entry.get("name") or "bench"), table=str(entry.get("table") or "-"), kind=kind,
                 port=str(entry.get("port") or port))
    if baudrate:
        entry["baudrate"] = baudrate
    if bcc_includes_start is not None:
        entry["bcc_includes_start"] = bcc_includes_start
    if protocol:
        entry["protocol"] = protocol
        entry.setdefault("heartbeat_s", None)
    try:
        return DeviceConfig.from_dict(entry)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def _stop_on_signals() -> threading.Event:
    """Ctrl-C or SIGTERM end a listening command cleanly (what was read is kept)."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    return stop


def _fail(text: str, code: int = EXIT_NO_LINE):
    click.echo(f"error: {text}", err=True)
    sys.exit(code)


@click.command("check")
@click.argument("port", required=False)
@click.option("--kind", type=click.Choice(KINDS), help="wheel, shoe or scanner (default: the configured device's)")
@click.option("--seconds", type=click.FloatRange(min=0.1), default=30.0, show_default=True,
              help="how long to listen")
@click.option("--rounds", type=click.IntRange(min=0), default=0,
              help="stop early once this many whole spins, coups (or cards read) were seen")
@click.option("--baudrate", type=click.IntRange(min=50), help="the line speed to listen at (default: the kind's)")
@click.option("--framing", default="8N1", show_default=True, help="the framing to listen with (8N1, 8E1, 7E1...)")
@click.option("--bcc-includes-start/--bcc-without-start", default=None, help="shoe: firmware that XORs ENQ into the BCC")
@click.option("--file", "capture_file", type=click.Path(exists=True, dir_okay=False),
              help="judge a capture file instead of a port")
@click.option("--protocol", help="the line format (e.g. wheel-number-v1, or a decoder's dotted path; default: the "
                                 "configured device's, else the kind's)")
@click.option("--no-answer", is_flag=True, help="shoe: listen only, write no ACK/NAK back")
@click.option("--json", "as_json", is_flag=True, help="the report as JSON, for machines")
@with_appcontext
def check(port, kind, seconds, rounds, baudrate, framing, bcc_includes_start, capture_file, protocol, no_answer,
          as_json):
    """Listen to one device's PORT (a pyserial URL, a pty or /dev path, or a configured device's
    name) and report whether it speaks its protocol: frames decoded, frames refused and why, the line
    speed that fits, gaps, heartbeat, whole rounds. Exit status 0 when it conforms, 1 when it does not,
    3 when the port or file cannot be read."""
    if capture_file:
        try:
            recording = cap.read(capture_file)
        except (OSError, cap.CaptureError) as exc:
            _fail(f"{capture_file}: {exc}")
        config = _config(port or recording.header.port, kind or recording.kind,
                         baudrate or recording.header.baudrate, bcc_includes_start, protocol)
        source = capture_file
    elif not port:
        raise click.UsageError("give a PORT to listen to, or --file CAPTURE")
    else:
        config = _config(port, kind, baudrate, bcc_includes_start, protocol)
        source = config.port
    try:
        line = parse_line(f"{config.baudrate} {framing}")
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if capture_file:
        report = check_capture(recording, config, line)
    else:
        stop = _stop_on_signals()
        if not as_json:
            click.echo(f"listening to {config.kind} on {source} at {line} for up to {seconds:g} s", err=True)
        try:
            report = check_port(config, seconds=seconds, rounds=rounds, answer=not no_answer, stop=stop, line=line)
        except (OSError, serial.SerialException) as exc:
            _fail(f"cannot read {source}: {exc}" + (" (is the device process holding it?)"
                                                   if "lock" in str(exc).lower() else ""))
    report["source"] = source
    click.echo(json.dumps(report, indent=2) if as_json else render(report))
    sys.exit(0 if report["conforming"] else EXIT_NOT_CONFORMING)


def render(r: dict) -> str:
    """The report for a person."""
    verdict = "CONFORMS" if r["conforming"] else "DOES NOT CONFORM"
    out = [f"{r['kind']} on {r['source']} at {r['line']}, {r['seconds']:.1f} s: {verdict}",
           f"  received   {r['bytes']} bytes in {r['chunks']} reads"
           + (f", the port reopened {r['reopened']} times" if r["reopened"] else "")
           + (f" ({r['lead_in_bytes']} bytes of a frame cut by the start left out)" if r["lead_in_bytes"] else "")]
    frames = ", ".join(f"{k} {v}" for k, v in r["frames"].items()) or "none"
    out.append(f"  decoded    {r['frames_total']} frames: {frames}")
    refused = ", ".join(f"{k} {v}" for k, v in r["refused"].items())
    out.append(f"  refused    {r['refused_total']}: {refused}")
    for reason, n in r["reasons"].items():
        out.append(f"               {n:>5}  {reason}")
    for category, raw in r["examples"].items():
        out.append(f"             e.g. {category}: {raw[:60]}")
    if r["replies"]:
        out.append(("  answered   " if r.get("answered", True) else "  would answer ")
                   + ", ".join(f"{k} {v}" for k, v in r["replies"].items()))
    fit = r["fit"]
    if fit is None:
        out.append(f"  line       {r['line']}" + (" fits" if r["frames_total"] else ""))
    elif fit["fits_configured"]:
        out.append(f"  line       {r['line']} fits (the refused bytes are not a wrong speed)")
    else:
        also = f" (or {', '.join(fit['also'])})" if fit["also"] else ""
        out.append(f"  line       {r['line']} does not fit: the bytes are what {fit['baudrate']} {fit['framing']}"
                   f"{also} gives; set the device or --baudrate to {fit['baudrate']}")
    out.append(f"  gaps       {len(r['gaps'])}" + (f": {'; '.join(r['gaps'][:5])}" if r["gaps"] else "")
               + f"    repeats {r['repeats']}")
    hb = r["heartbeat"]
    beat = f"  heartbeat  {hb['count']} " + ("status lines" if r["kind"] == "wheel" else "frames")
    if "mean_s" in hb:
        beat += f", every {hb['mean_s']:.2f} s on average, at most {hb['max_s']:.2f} s"
    if hb.get("limit_s"):
        beat += f" (limit {hb['limit_s']:g} s): " + ("regular" if hb.get("regular") else "IRREGULAR")
    out.append(beat)
    if r["whole"]:
        w = r["whole"]
        first = f" (first: {_round_text(w['first'])})" if w["first"] else ""
        out.append(f"  whole {w['kind']}s seen: {w['seen']}{first}")
    if r.get("ended"):
        out.append(f"  ended      {r['ended']}")
    if r["problems"]:
        out.append("problems:")
        out += [f"  - {p}" for p in r["problems"]]
    return "\n".join(out)


def _round_text(first: dict) -> str:
    if "spin" in first:
        return f"spin {first['spin']}, number {first['number']}" if first["spin"] else f"number {first['number']}"
    return f"{' '.join(first['cards'])}, {first['winner']}"


@click.command("capture")
@click.argument("port")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@click.option("--seconds", type=click.FloatRange(min=0.1), help="stop after this long (default: until Ctrl-C)")
@click.option("--kind", type=click.Choice(KINDS), help="wheel, shoe or scanner (default: the configured device's)")
@click.option("--baudrate", type=click.IntRange(min=50), help="the line speed (default: the kind's)")
@with_appcontext
def capture(port, file, seconds, kind, baudrate):
    """Record what arrives on PORT, with its arrival times, to FILE (a capture: JSON Lines). Listens
    only: nothing is written to the device."""
    config = _config(port, kind, baudrate, None)
    stop = _stop_on_signals()
    try:
        with open(file, "w", encoding="utf-8") as out:
            chunks, size = capture_port(config.port, config.kind, config.baudrate or DEFAULT_BAUD[config.kind], out,
                                        seconds=seconds, stop=stop,
                                        started=lambda: click.echo(f"capturing {config.kind} on {config.port} "
                                                                   f"to {file}", err=True))
    except (OSError, serial.SerialException) as exc:
        _fail(f"cannot read {config.port}: {exc}")
    click.echo(f"{size} bytes in {max(chunks - 1, 0)} reads to {file}")


@click.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--to", "target", required=True,
              help='the port to play onto (a pyserial URL or path), or "pty": a new pseudo-terminal a reader opens')
@click.option("--link", type=click.Path(dir_okay=False), help="pty: a symlink pointed at it (like /dev/serial/by-id)")
@click.option("--speed", type=click.FloatRange(min=0.01), default=1.0, show_default=True,
              help="divide the recorded delays by this")
@with_appcontext
def replay(file, target, link, speed):
    """Play a capture FILE onto a port with its recorded timings, as the device sent it. With --to pty
    the playing starts once a reader has opened the pseudo-terminal."""
    try:
        recording = cap.read(file)
    except (OSError, cap.CaptureError) as exc:
        _fail(f"{file}: {exc}")
    stop = _stop_on_signals()
    try:
        if target == "pty":
            target = PtyTarget(link)
            click.echo(f"replaying {recording.kind} on {target.path}", err=True)
            sys.stderr.flush()
        chunks, size = replay_capture(recording, target, speed=speed, stop=stop)
    except (OSError, serial.SerialException) as exc:
        _fail(f"cannot write to {target}: {exc}")
    finally:
        if isinstance(target, PtyTarget):
            target.close()
    click.echo(f"replayed {size} bytes in {chunks} writes")
