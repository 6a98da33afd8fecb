"""Property tests: decoders never raise, and slicing never changes what they decode."""
from hypothesis import given, settings
from hypothesis import strategies as st

from devices.events import FrameError
from devices.scanner import CardRead, ScannerDecoder
from devices.scanner import encode_card as scan_card
from devices.shoe import (
    ACK,
    CardDealt,
    CardDrawn,
    CoupStart,
    CutCard,
    Reply,
    ShoeDecoder,
    ShoeError,
    ShoeErrorCleared,
    ShoeResult,
    encode_card,
    encode_drawn,
    encode_error,
    encode_result,
    encode_simple,
)
from devices.wheel import (
    CommandReply,
    SelfTest,
    WheelDecoder,
    WheelStatus,
    WinningNumber,
    encode_number,
    encode_selftest,
    encode_status,
)
from floor.games.cards import SUITS, Card

settings.register_profile("devices", deadline=None, max_examples=150)
settings.load_profile("devices")

cards = st.builds(lambda r, s: Card(r, s), st.integers(2, 14), st.sampled_from(SUITS))
cuts = st.lists(st.integers(0, 10_000), max_size=30)


def sliced(data: bytes, points: list[int]) -> list[bytes]:
    points = sorted({p % (len(data) + 1) for p in points})
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


def run(decoder, chunks, **kw) -> list:
    return [e for c in chunks for e in decoder.feed(c, **kw)]


DECODERS = [WheelDecoder, ShoeDecoder, lambda: ShoeDecoder(bcc_includes_start=True),
            ScannerDecoder, lambda: ScannerDecoder(b"<", b">")]


@given(st.binary(max_size=600), cuts, st.sampled_from(DECODERS))
def test_arbitrary_bytes_never_raise_and_slicing_is_irrelevant(data, points, make):
    kw = {"now": 0.0} if make in (ScannerDecoder,) else {}
    whole = run(make(), [data], **kw)
    assert run(make(), sliced(data, points), **kw) == whole
    for e in whole:
        assert type(e).__module__.startswith("devices.")


# line noise: any run without a line end, longer than a line or not, ending in a byte no line holds
line_noise = st.binary(min_size=0, max_size=120).filter(lambda b: b"\n" not in b and b"\r" not in b).map(
    lambda b: b + b"\xff")

wheel_frames = st.one_of(
    st.builds(lambda *a: (encode_status(*a[:4], a[4] / 10, a[5]), WheelStatus(a[0], a[1], a[2], a[3], a[4] / 10, a[5])),
              st.integers(1, 7), st.integers(1, 256), st.none() | st.integers(0, 36), st.integers(0, 15),
              st.integers(0, 999), st.integers(0, 1)),
    st.builds(lambda n: (encode_number(n), WinningNumber(n)), st.integers(0, 36)),
    st.builds(lambda c: (encode_selftest(c), SelfTest(c)), st.sampled_from([0, 1, 2, 11, 100, "BUSY"])),
    st.just((b"*P OK\r\n", CommandReply("P", "OK"))),
)


@given(st.lists(st.tuples(wheel_frames, st.none() | line_noise), max_size=25), cuts)
def test_wheel_frames_among_noise_all_decode_in_order(items, points):
    data = b"".join(f + (n or b"") for (f, _), n in items)
    expected = [e for (_, e), _ in items]
    events = run(WheelDecoder(), sliced(data, points))
    assert [e for e in events if not isinstance(e, FrameError)] == expected
    # one refusal per run of noise, reported at the line that ends the run
    assert sum(isinstance(e, FrameError) for e in events) == sum(n is not None for _, n in items[:-1])


def shoe_frame(kind, a, b, seq, start):
    kw = {"bcc_includes_start": start}
    if kind == "D":
        target, index = ("player", "banker", "burn")[a % 3], a % 3 + 1
        return encode_card(seq, target, index, b, **kw), CardDealt(target, index, b)
    if kind == "d":
        return encode_drawn(seq, b, **kw), CardDrawn(b)
    if kind == "G":
        winner = ("player", "tie", "banker", "quit")[a % 4]
        return encode_result(seq, winner, a & 1 == 1, a & 2 == 2, **kw), ShoeResult(winner, a & 1 == 1, a & 2 == 2)
    if kind == "E":
        return encode_error(seq, a % 7 + 1, **kw), ShoeError(a % 7 + 1)
    event = {"S": CoupStart(), "C": CutCard(), "e": ShoeErrorCleared()}[kind]
    return encode_simple(seq, kind, **kw), event


shoe_noise = st.binary(min_size=1, max_size=40).filter(lambda b: 0x05 not in b)


@given(st.lists(st.tuples(st.sampled_from("DdGESCe"), st.integers(0, 255), cards, st.integers(1, 3),
                          st.none() | shoe_noise), max_size=25),
       cuts, st.booleans())
def test_shoe_frames_among_noise_and_repeats_all_decode_in_order(items, points, start):
    data, expected = b"", []
    for i, (kind, a, card, copies, noise) in enumerate(items):
        frame, event = shoe_frame(kind, a, card, i % 10, start)
        data += frame * copies + (noise or b"")
        expected.append(event)
    events = run(ShoeDecoder(bcc_includes_start=start), sliced(data, points))
    assert [e for e in events if not isinstance(e, (FrameError, Reply))] == expected
    acks = [e for e in events if isinstance(e, Reply) and e.data == bytes([ACK])]
    assert len(acks) == sum(copies for *_, copies, _ in items)


@given(st.lists(st.tuples(cards, st.none() | line_noise), max_size=25), cuts,
       st.sampled_from([(b"", b""), (b"\x02", b""), (b"", b"\t"), (b"[", b"]")]))
def test_scanner_cards_among_noise_all_decode_in_order(items, points, fix):
    data = b"".join(scan_card(c, *fix) + (n or b"") for c, n in items)
    events = run(ScannerDecoder(*fix, duplicate_window_s=0), sliced(data, points), now=0.0)
    assert [e.card for e in events if isinstance(e, CardRead)] == [c for c, _ in items]
    assert sum(isinstance(e, FrameError) for e in events) == sum(n is not None for _, n in items[:-1])
