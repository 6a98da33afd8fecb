"""A body over the limit, sent to the real web process over a keep-alive connection: the 413 says
``Connection: close`` and the process closes, instead of announcing keep-alive and then dropping the
connection under the client's next request."""
from __future__ import annotations

import socket

import pytest

from app import create_app
from tests.conftest import make_config
from tests.servers import Server

pytestmark = pytest.mark.slow   # starts a real web process


def _read_answer(sock: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head, body


def test_a_413_closes_the_connection_it_says_it_closes(sqlite_url, tmp_path):
    out = create_app(make_config(sqlite_url, tmp_path)).test_cli_runner().invoke(
        args=["floor", "token", "create", "manager"])
    token = out.output.strip().encode()
    server = Server(sqlite_url, tmp_path / "instance").wait()
    try:
        body = b"x" * (70 * 1024)
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(b"POST /api/players HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n"
                         b"Content-Type: application/json\r\nAuthorization: Bearer " + token + b"\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
            try:
                sock.sendall(body)
            except OSError:
                pass   # the server may stop reading once it has answered
            head, _ = _read_answer(sock)
            lines = head.decode("latin-1").lower().split("\r\n")
            assert lines[0].startswith("http/1.1 413"), lines
            assert "connection: close" in lines, lines
    finally:
        server.stop()
