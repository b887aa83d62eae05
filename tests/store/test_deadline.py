"""The client's bound on each call to the server (store/deadline.py), on a socket pair
standing in for a connection to a frozen server: a call past its bound has its socket shut
down, the first call of a fresh process too, and one still running after the cut is cut again
and said in the log."""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
from types import SimpleNamespace

import pytest

from scorekeeper.store import deadline

from ..harness import until


def _connection(sock: socket.socket) -> SimpleNamespace:
    """What `bounded` reads of a psycopg connection: its socket's descriptor."""
    return SimpleNamespace(pgconn=SimpleNamespace(socket=sock.fileno()))


def test_the_first_call_of_a_fresh_process_is_bounded() -> None:
    """A server that never answers: the wait on its socket ends with the cut (the watching
    thread's start once forgot the call that started it)."""
    script = (
        "import socket\n"
        "from types import SimpleNamespace as N\n"
        "from scorekeeper.store.deadline import bounded, cut_count\n"
        "ours, server = socket.socketpair()\n"
        "with bounded(N(pgconn=N(socket=ours.fileno())), 0.3):\n"
        "    got = ours.recv(10)\n"
        "print(repr(got), cut_count())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.split() == ["b''", "1"], done.stderr


def test_a_call_still_running_after_its_cut_is_cut_again_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ours, server = socket.socketpair()
    before = deadline.cut_count()
    with caplog.at_level(logging.WARNING, logger=deadline.__name__):
        with deadline.bounded(_connection(ours), 0.1):
            until(lambda: deadline.cut_count() >= before + 2, "the call cut twice")
    assert "did not end when its socket was shut down 1 time(s)" in caplog.text
    assert ours.recv(10) == b""  # shut down: the wait on it ends
    ours.close()
    server.close()


def test_a_call_that_ends_in_time_is_never_cut() -> None:
    ours, server = socket.socketpair()
    before = deadline.cut_count()
    with deadline.bounded(_connection(ours), 60):
        server.send(b"x")
        assert ours.recv(1) == b"x"
    server.send(b"y")
    assert ours.recv(1) == b"y"  # still whole
    assert deadline.cut_count() == before
    ours.close()
    server.close()


class _Later:
    """A connection with no socket when the call starts (libpq between two), then one."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock, self.looks = sock, 0

    @property
    def socket(self) -> int:
        self.looks += 1
        if self.looks == 1:
            raise OSError("the connection is lost")
        return self._sock.fileno()


def test_a_call_whose_connection_had_no_socket_when_it_began_is_still_cut() -> None:
    ours, server = socket.socketpair()
    ours.settimeout(60)  # a call never cut fails the test, not hangs it
    later = _Later(ours)
    with pytest.raises(OSError):
        later.socket  # noqa: B018 - the look at the call's start: no socket yet
    with deadline.bounded(SimpleNamespace(pgconn=later), 0.2):
        assert ours.recv(10) == b""  # the cut reads the socket the connection has now
    ours.close()
    server.close()
