"""The access log's handler (scorekeeper.serverlog.Background): a request's thread only puts
its line on a queue; one thread per process writes it, masked; every line is written, from
many threads, in a forked process, and before logging shuts down."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import threading

from scorekeeper.serverlog import Background, MaskedFormatter

from .harness import ROOT


class HeldStream(io.StringIO):
    """A stream whose writes wait until it is let go (a slow disk, a full pipe)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()

    def write(self, text: str) -> int:
        self.go.wait(30)
        return super().write(text)


def _logger(handler: logging.Handler, name: str) -> logging.Logger:
    log = logging.getLogger(name)
    log.handlers[:] = [handler]
    log.propagate = False
    log.setLevel(logging.INFO)
    return log


def test_a_thread_that_logs_does_not_wait_for_the_write_and_every_line_is_written() -> None:
    stream = HeldStream()
    handler = Background(stream)
    handler.setFormatter(MaskedFormatter("%(message)s"))
    log = _logger(handler, "test.serverlog.held")
    done = threading.Event()

    def requests() -> None:
        for i in range(50):
            log.info("GET /g/Secret%dToken HTTP/1.1 200", i)
        done.set()

    thread = threading.Thread(target=requests)
    thread.start()
    # The stream holds every write, yet the requests' thread is through with its lines.
    assert done.wait(10)
    thread.join()
    stream.go.set()
    handler.close()
    lines = stream.getvalue().splitlines()
    assert lines == ["GET /g/*** HTTP/1.1 200"] * 50


def test_many_threads_lines_are_all_written_whole() -> None:
    stream = io.StringIO()
    handler = Background(stream)
    handler.setFormatter(MaskedFormatter("%(message)s"))
    log = _logger(handler, "test.serverlog.many")

    def requests(n: int) -> None:
        for i in range(200):
            log.info("thread %d line %d", n, i)

    threads = [threading.Thread(target=requests, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    handler.close()
    lines = stream.getvalue().splitlines()
    assert sorted(lines) == sorted(f"thread {n} line {i}" for n in range(8) for i in range(200))


def test_a_forked_worker_writes_its_lines_and_the_rest_before_it_exits() -> None:
    """As gunicorn's workers: logging configured in the parent, lines logged in a forked
    child (where the parent's writing thread does not exist), the child then exiting."""
    script = (
        "import logging, os, sys\n"
        "from scorekeeper.serverlog import configure_logging\n"
        "configure_logging()\n"
        "log = logging.getLogger('scorekeeper.access')\n"
        "log.info('parent /v/SecretOfTheParent')\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    for i in range(1000):\n"
        "        log.info('child %d /g/SecretOfTheChild', i)\n"
        "    sys.exit(0)\n"
        "os.waitpid(pid, 0)\n"
        "log.info('parent again')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # Every line of both, once; the parent's in their order (its first line may be written
    # before or after the child's: its writing thread takes it when it next looks).
    parent = ["parent /v/***", "parent again"]
    assert sorted(lines) == sorted([*parent, *(f"child {i} /g/***" for i in range(1000))])
    assert [line for line in lines if line.startswith("parent")] == parent
    assert "Secret" not in done.stdout + done.stderr
