"""Where the servers' lines go: the access log (one line per request in Combined Log Format,
on `scorekeeper.access`) alone on stdout, so it can be read by a log analyser as it is
(goaccess --log-format=COMBINED); the server's own lines (start, workers, errors,
tracebacks) on stderr. Every line has the secret part of game, company and tournament links
replaced by `***`. And how long a stopping server waits for the requests in flight.
Shared by `scorekeeper serve` (serving.py) and gunicorn's settings (gunicorn_config.py),
which import it and nothing of each other."""

from __future__ import annotations

import logging
import logging.config
import logging.handlers
import os
import queue
import re
import threading
import time
from typing import Any, TextIO

#: The secret part of a link: /g/ and /v/ (a game), /c/ and /cv/ (a company), /t/ and /tv/ (a
#: tournament), /tournament/of/ (a table's tournament, by the game's view token), wherever it
#: shows in a line (a path, a Referer, an error message), in any case (/G/ is a 404 that still
#: names the token) and after any number of slashes (/g//token is redirected, and logged).
_TOKEN = re.compile(r"/(g|v|c|cv|t|tv|tournament/+of)/+[^/\s?#\"'<>\\]+", re.IGNORECASE)

#: A log line's longest line: a 1 MB form value echoed in an error message stops here.
LINE_LIMIT = 2000


def mask(text: str) -> str:
    """The text as the log shows it: every link's secret token replaced by ***."""
    return _TOKEN.sub(r"/\1/***", text)


def _shortened(line: str) -> str:
    if len(line) <= LINE_LIMIT:
        return line
    return f"{line[:LINE_LIMIT]}… ({len(line) - LINE_LIMIT} more characters)"


class MaskedFormatter(logging.Formatter):
    """A log formatter that masks secret tokens in the whole line, traceback included, and
    cuts every line of it at LINE_LIMIT characters."""

    def format(self, record: logging.LogRecord) -> str:
        text = mask(super().format(record))
        if len(text) <= LINE_LIMIT:
            return text
        return "\n".join(_shortened(line) for line in text.split("\n"))


class Background(logging.handlers.QueueHandler):
    """A stream's handler whose lines are formatted and written by a thread of their own, one
    per process: the thread that answered a request only puts its record on a queue, and
    takes no lock (logging's StreamHandler takes one around each line's formatting and
    write, and the threads of a process queued on it: 10.7 % of a worker's samples under
    1,000 tables, docs/capacity.md). The thread starts with the process's first line (a
    forked worker starts its own: a thread does not survive a fork) and writes what is left
    on the queue when logging shuts down (at the process's exit)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__(queue.SimpleQueue())
        self.target = logging.StreamHandler(stream)
        self._listener: logging.handlers.QueueListener | None = None
        self._pid = -1
        self._starting = threading.Lock()

    def setFormatter(self, fmt: logging.Formatter | None) -> None:  # noqa: N802 (logging's)
        self.target.setFormatter(fmt)

    def handle(self, record: logging.LogRecord) -> bool:
        """Put the record on the queue (filtered first), with no lock: the queue is safe."""
        if not self.filter(record):
            return False
        self.emit(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        if self._pid != os.getpid():
            self._start()
        self.queue.put_nowait(record)  # formatted by the writing thread, in this process

    def _start(self) -> None:
        with self._starting:
            if self._pid == os.getpid():
                return
            self.queue = queue.SimpleQueue()  # a forked copy's is the parent's
            self._listener = _Polled(self.queue, self.target)
            self._listener.start()
            self._pid = os.getpid()

    def flush(self) -> None:
        self.target.flush()

    def drain(self) -> None:
        """Write every line queued so far, now (a line logged after starts the thread again)."""
        with self._starting:
            if self._listener is not None and self._pid == os.getpid():
                self._listener.stop()
            self._listener, self._pid = None, -1
        self.target.flush()

    def close(self) -> None:
        """Write every line still queued, then end the writing thread."""
        self.drain()
        super().close()


def drain_access_log() -> None:
    """Write out the access log's queued lines: a server about to exit calls it (uvicorn
    ends its process by raising again the SIGTERM it caught, and a process a signal ends
    writes nothing more: the last requests' lines were lost)."""
    for handler in logging.getLogger("scorekeeper.access").handlers:
        if isinstance(handler, Background):
            handler.drain()


class _Polled(logging.handlers.QueueListener):
    """logging's QueueListener, taking the queued lines every PAUSE seconds rather than
    waiting on the queue: a line put on a queue that a thread waits on wakes that thread,
    which then takes the GIL from the request threads, once per request. Measured (six
    threads logging while they work): 60 µs of CPU per request against 63–109 µs with the
    waiting listener (75–80 µs with logging's plain StreamHandler), and a third fewer
    context switches."""

    def __init__(self, lines: queue.SimpleQueue[Any], target: logging.Handler) -> None:
        super().__init__(lines, target)
        self.lines = lines

    def dequeue(self, block: bool) -> Any:
        while True:
            try:
                return self.lines.get_nowait()
            except queue.Empty:
                time.sleep(PAUSE)


PAUSE = 0.05
"""How long the access log's writing thread sleeps when it has written every line."""


class NoBanner(logging.Filter):
    """Drops hypercorn's English "Running on … (CTRL + C to quit)": `scorekeeper serve` has
    said where it listens and how to stop it already, in the user's language."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "CTRL + C to quit" not in record.getMessage()


SERVER_FORMAT = "[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s: %(message)s"

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "access": {"()": MaskedFormatter, "format": "%(message)s"},
        "server": {"()": MaskedFormatter, "format": SERVER_FORMAT},
    },
    "filters": {"no_banner": {"()": NoBanner}},
    "handlers": {
        "access": {  # alone on its stream: nothing but Combined Log Format lines
            "class": "scorekeeper.serverlog.Background",
            "formatter": "access",
            "stream": "ext://sys.stdout",
        },
        "server": {
            "class": "logging.StreamHandler",
            "formatter": "server",
            "stream": "ext://sys.stderr",
        },
    },
    "root": {"level": "INFO", "handlers": ["server"]},
    "loggers": {
        "scorekeeper.access": {"level": "INFO", "handlers": ["access"], "propagate": False},
        # gunicorn's own loggers go to the root's masked handler (its access log is off:
        # scorekeeper.access writes one line per request whatever the server).
        "gunicorn.error": {"level": "INFO", "handlers": [], "propagate": True},
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
        "hypercorn.error": {
            "level": "INFO",
            "handlers": [],
            "propagate": True,
            "filters": ["no_banner"],
        },
        "hypercorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
    },
}
"""Where every server's lines go: the access log to stdout, every other line to stderr, all
masked (logging.config.dictConfig)."""


def configure_logging() -> None:
    """Send the access log to stdout and every other line to stderr, with tokens masked."""
    logging.config.dictConfig(LOGGING)


GRACE_SECONDS = 30
"""How long a stopping server waits for the requests in flight to be answered."""
