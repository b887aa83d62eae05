"""How the app is served: which server, its access log, HTTPS with a kept certificate.

Every server runs the same ASGI app (`followed`: the long poll's Router in front of the Flask
app, longpoll.py), so a phone that follows a game holds one request, answered when the game
changes, whichever server it talks to:

- `scorekeeper serve` (a laptop at the table, any OS): uvicorn, one process
  (uvicorn_server.py).
- `scorekeeper serve --workers N`, the Docker image and the systemd unit: gunicorn with
  uvicorn's worker (async_worker.py), N processes (settings in `scorekeeper.gunicorn_config`).
- `scorekeeper serve --https`: hypercorn, one process, TLS with a self-made certificate kept
  in the instance folder (`tls/cert.pem`, `tls/key.pem`). Its handshakes run concurrently on
  an event loop with a timeout, so a client that connects and says nothing holds up no one
  (bench/bench_tls.py).

In each, the Flask app runs in the Router's pools of threads. Each stops on SIGTERM after
answering the held requests ("no change") and the requests in flight, and exits 0.

Every request is one line in Combined Log Format (plus its duration) on the logger
`scorekeeper.access`; every line the server writes, error lines and tracebacks included, has
the secret part of game, company and tournament links replaced by `***`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import logging
import logging.config
import os
import signal
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from scorekeeper.serverlog import (
    GRACE_SECONDS,
)
from scorekeeper.web import create_app, offer_certificate

# Each server, and the certificate's library, is imported where it is used: `serve` runs one
# of them, and importing the others would cost its start (measured: gunicorn 51 ms,
# hypercorn 68 ms, cryptography's x509 62 ms).

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

# -- the log ---------------------------------------------------------------------------------

ACCESS = logging.getLogger("scorekeeper.access")


def _quoted(value: str) -> str:
    """A header's value inside the double quotes of a log line: no quote, no control."""
    out = value.replace("\\", "\\\\").replace('"', '\\"')
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in out) or "-"


class AccessLog:
    """WSGI middleware: one Combined Log Format line per request, and the requests in flight.

    `client - - [time] "METHOD /path PROTOCOL" status size "referrer" "agent" seconds`: the
    path without its query, every token masked; the client as the app sees it (the proxy's
    client when the proxy is trusted); the duration until the body was handed to the server.
    """

    def __init__(self, app: WSGIApp) -> None:
        self.app = app
        self._busy = 0
        self._idle = threading.Condition()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        started = time.perf_counter()
        when = datetime.datetime.now().astimezone()
        status = ["-"]
        with self._idle:
            self._busy += 1

        def recording_start(code: str, headers: list[tuple[str, str]], *exc: Any) -> Any:
            status[0] = code.split(" ", 1)[0]
            return start_response(code, headers, *exc)

        try:
            body = self.app(environ, recording_start)
        except BaseException:
            self._done(environ, when, "500", 0, started)
            raise
        return _Counted(body, lambda size: self._done(environ, when, status[0], size, started))

    def _done(
        self, environ: dict[str, Any], when: datetime.datetime, status: str, size: int, t0: float
    ) -> None:
        try:
            self.write(environ, when, status, size, time.perf_counter() - t0)
        finally:
            with self._idle:
                self._busy -= 1
                self._idle.notify_all()

    def write(
        self, environ: dict[str, Any], when: datetime.datetime, status: str, size: int, s: float
    ) -> None:
        """One line of the log (also for a request answered before the app: the long poll)."""
        path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        request = " ".join(
            [
                environ.get("REQUEST_METHOD", "-"),
                urllib.parse.quote(path, safe="/%:@!$&'()*+,;=-._~"),
                environ.get("SERVER_PROTOCOL", "-"),
            ]
        )
        ACCESS.info(
            '%s - - [%s] "%s" %s %s "%s" "%s" %.3f',
            environ.get("REMOTE_ADDR") or "-",
            when.strftime("%d/%b/%Y:%H:%M:%S %z"),
            _quoted(request),
            status,
            size or "-",
            _quoted(environ.get("HTTP_REFERER", "")),
            _quoted(environ.get("HTTP_USER_AGENT", "")),
            s,
        )

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no request is being answered (False if the time ran out first)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)


# -- a request framed twice ------------------------------------------------------------------
# Both Content-Length and Transfer-Encoding: RFC 9112 (6.3) says the server must close the
# connection after answering (a proxy in front may have framed the body the other way:
# request smuggling). Every server answers it through CloseFramedTwice: the answer says
# Connection: close, and the server closes the connection after it.


class CloseFramedTwice:
    """WSGI middleware: the answer to a request framed twice says Connection: close, and
    the server closes the connection after it."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        twice = bool(environ.get("HTTP_TRANSFER_ENCODING")) and bool(
            environ.get("CONTENT_LENGTH") or environ.get("HTTP_CONTENT_LENGTH")
        )
        if not twice:
            return self.app(environ, start_response)

        def closing(code: str, headers: list[tuple[str, str]], *exc: Any) -> Any:
            kept = [(k, v) for k, v in headers if k.lower() != "connection"]
            return start_response(code, [*kept, ("Connection", "close")], *exc)

        return self.app(environ, closing)


class _Counted:
    """A response body that counts what it hands out and reports once the server is done."""

    def __init__(self, body: Iterable[bytes], done: Callable[[int], None]) -> None:
        self.body = body
        self.done = done
        self.size = 0
        self._reported = False

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.body:
            self.size += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            if not self._reported:
                self._reported = True
                self.done(self.size)


# -- the certificate -------------------------------------------------------------------------


#: Apple devices refuse TLS certificates valid for longer than 825 days, trusted or not.
LIFETIME = datetime.timedelta(days=825)


def certificate(folder: Path, names: Iterable[str]) -> tuple[Path, Path]:
    """The certificate and key kept in `folder`, made once (self-signed, for 825 days).

    It names localhost, this machine and the given addresses. A new one is made only when
    the machine has an address the kept one does not name, or it ends within 30 days
    (phones then ask to trust it again).
    """
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    wanted = {"localhost", "127.0.0.1", socket.gethostname(), *names} - {""}
    if cert_path.is_file() and key_path.is_file() and _still_good(cert_path, wanted):
        return cert_path, key_path
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "scorekeeper")])
    alt: list[x509.GeneralName] = []
    for name in sorted(wanted):
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + LIFETIME)
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    key_bytes = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    key_path.touch(mode=0o600, exist_ok=True)
    key_path.chmod(0o600)
    key_path.write_bytes(key_bytes)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def _still_good(cert_path: Path, wanted: set[str]) -> bool:
    """Whether a kept certificate names every wanted address and has 30 days left."""
    from cryptography import x509

    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, x509.ExtensionNotFound):
        return False
    names = {str(n) for n in alt.get_values_for_type(x509.DNSName)}
    names |= {str(a) for a in alt.get_values_for_type(x509.IPAddress)}
    left = cert.not_valid_after_utc - datetime.datetime.now(datetime.UTC)
    return wanted <= names and left > datetime.timedelta(days=30)


#: Where `serve --https` offers its certificate, for phones to install and trust.
CERT_PATH = "/scorekeeper.crt"


def fingerprint(cert_path: Path) -> str:
    """The certificate's SHA-256 fingerprint, as browsers show it (AB:CD:...)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    digest = x509.load_pem_x509_certificate(cert_path.read_bytes()).fingerprint(hashes.SHA256())
    return ":".join(f"{b:02X}" for b in digest)


# -- the app -----------------------------------------------------------------------------------


def web_app(db: str | None, *, https: bool = False) -> Any:
    """The web app `serve` runs, with its configuration (instance/config.py, SCOREKEEPER_*),
    --db on top; with https, its cookies are Secure."""
    app = create_app(create_database=False)  # serve opens (or makes) the file itself
    if db:
        app.config["DATABASE"] = db
    if https:
        app.config["HTTPS"] = True
    return app


def tls_certificate(app: Any, urls: list[str]) -> tuple[Path, Path]:
    """The certificate and key for the addresses `serve --https` prints, made once and kept
    in the instance folder, and offered to phones at CERT_PATH. Raises OSError (with the
    folder as its filename) if it cannot be kept."""
    folder = Path(app.instance_path) / "tls"
    try:
        cert, key = certificate(folder, [urllib.parse.urlsplit(u).hostname or "" for u in urls])
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), str(folder)) from error
    offer_certificate(app, cert, CERT_PATH)
    return cert, key


# -- the servers -----------------------------------------------------------------------------


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound and listening on host:port (a busy port raises OSError here, before any
    server starts), handed to the server as an open file descriptor."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Named TCP, so that asyncio turns Nagle's algorithm off on each connection it accepts
    # (it does only for a socket that says IPPROTO_TCP): with it on, uvicorn's head and body,
    # two writes, waited for the phone's delayed ACK, 40 ms an answer.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if os.name != "nt":  # on Windows it would let a second server share the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(1024)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def followed(logged: AccessLog, config: Any, threads: int) -> Any:
    """The ASGI app every server runs: the long poll's Router (longpoll.py) answers the held
    requests of the phones that follow a game in the event loop, and hands every other
    request to the Flask app, logged (`logged`: the app in its AccessLog), in its pools of
    threads (`threads` for the pages). `config`: the Flask app's (its database, its body
    limit)."""
    from scorekeeper.longpoll import Router, Watch
    from scorekeeper.store import Store

    database = config["DATABASE"]
    watch = Watch(lambda: Store(database, create=False))
    limit = config["MAX_CONTENT_LENGTH"]
    larger = config.get("BODY_LIMITS", {})
    return Router(CloseFramedTwice(logged), watch, threads, logged.write, limit, larger)


def server(
    app: Any, host: str, port: int, *, threads: int, workers: int, tls: tuple[Path, Path] | None
) -> Any:
    """The server `serve` runs, bound already (a busy port raises OSError here): hypercorn
    over TLS, gunicorn with uvicorn's worker for several processes, else uvicorn; each runs
    the same app (`followed`)."""
    logged = AccessLog(app)
    routed = followed(logged, app.config, threads)
    sock = listening_socket(host, port)
    if tls is not None:
        return TLSServer(routed, sock, *tls, idle=logged.wait_idle)
    if workers > 1:
        return Gunicorn(routed, sock, threads, workers)
    from scorekeeper.uvicorn_server import Foreground

    return Foreground(routed, sock)


class Gunicorn:
    """gunicorn with uvicorn's worker in `workers` processes, as the Docker image runs it."""

    def __init__(self, app: Any, sock: socket.socket, threads: int, workers: int) -> None:
        from gunicorn.app.base import BaseApplication

        from scorekeeper import gunicorn_config

        settings = gunicorn_config.settings(workers=workers, threads=threads)
        settings["bind"] = [f"fd://{sock.fileno()}"]
        self.sock = sock

        class Application(BaseApplication):
            def load_config(self) -> None:
                for name, value in settings.items():
                    self.cfg.set(name, value)

            def load(self) -> Any:
                return app

        self.application = Application()

    def run(self) -> None:
        arbiter = os.getpid()
        try:
            self.application.run()
        except SystemExit as stop:  # the arbiter exits once its workers have stopped
            if os.getpid() != arbiter or stop.code not in (0, None):
                raise  # a worker's end is its own; a failed start is the command's
        finally:
            with contextlib.suppress(OSError):
                self.sock.close()


class TLSServer:
    """hypercorn serving the app (`followed`) over TLS in this process; `run()` blocks until
    stopped (SIGTERM or Ctrl+C: the held requests are answered at once, the requests in
    flight are answered, then the connections left, idle phones between two requests, are
    closed at once: hypercorn alone waited its whole grace for them and then cancelled them
    with a traceback)."""

    def __init__(
        self,
        app: Any,
        sock: socket.socket,
        cert: Path,
        key: Path,
        *,
        idle: Callable[[float], bool] | None = None,
    ) -> None:
        from hypercorn.config import Config

        self.idle = idle
        self.stopped = False
        self.app = app
        self.sock = sock
        config = Config()
        config.bind = [f"fd://{sock.fileno()}"]
        config.certfile = str(cert)
        config.keyfile = str(key)
        config.accesslog = None  # scorekeeper.access has the line
        config.errorlog = logging.getLogger("hypercorn.error")
        config.graceful_timeout = GRACE_SECONDS
        config.ssl_handshake_timeout = 10  # a client that never finishes it is dropped
        config.read_timeout = 30  # and one that stops sending its request
        config.server_names = []
        self.config = config

    def run(self) -> None:
        from hypercorn.asyncio import serve

        async def main() -> None:
            loop = asyncio.get_running_loop()
            loop.set_exception_handler(_one_line_for_dropped_connections)
            try:
                await serve(self.app, self.config, mode="asgi", shutdown_trigger=self._stopping)
            except _DROPPED as error:
                # A phone's connection broke while it was being closed at the stop
                # (hypercorn gathers the connections' ends and raises the first error).
                if not self.stopped:
                    raise
                logging.getLogger("scorekeeper.serving").info(
                    "connection dropped at the stop: %s", error
                )

        # A closed TLS connection waits for the phone's close_notify: asyncio's 30 s default
        # held every stop that long for one idle phone (hypercorn passes no timeout of its own).
        asyncio.constants.SSL_SHUTDOWN_TIMEOUT = SSL_SHUTDOWN_SECONDS  # type: ignore[attr-defined]
        try:
            asyncio.run(main())
        finally:
            with contextlib.suppress(OSError):  # hypercorn closed its copy of the descriptor
                self.sock.close()

    async def _stopping(self) -> None:
        """hypercorn's shutdown trigger: SIGTERM or SIGINT, then the held requests answered,
        the requests in flight answered (up to the grace), then a short grace for the idle
        connections."""
        loop = asyncio.get_running_loop()
        signalled = asyncio.Event()
        for number in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(number, signalled.set)
        await signalled.wait()
        self.stopped = True
        self.app.stop_waiting()
        if self.idle is not None:
            await loop.run_in_executor(None, self.idle, GRACE_SECONDS)
        self.config.graceful_timeout = IDLE_GRACE_SECONDS


#: How long a stopping hypercorn waits for connections once nothing is being answered.
IDLE_GRACE_SECONDS = 1.0
#: How long a closed TLS connection waits for the client's close_notify.
SSL_SHUTDOWN_SECONDS = 2.0

_DROPPED = (asyncio.CancelledError, ConnectionError, TimeoutError, OSError)


def _one_line_for_dropped_connections(
    loop: asyncio.AbstractEventLoop, context: dict[str, Any]
) -> None:
    """The event loop's errors: a connection a client broke (a hostile or vanished TLS
    client: "SSL shutdown timed out", a reset, a cancelled idle connection at the stop) is
    one line in the log, not a traceback; anything else goes to asyncio's own handler."""
    error = context.get("exception")
    if isinstance(error, _DROPPED):  # ssl.SSLError is an OSError
        logging.getLogger("scorekeeper.serving").info(
            "connection dropped: %s (%s)", context.get("message", ""), error or type(error)
        )
        return
    loop.default_exception_handler(context)
