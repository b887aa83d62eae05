"""How `scorekeeper serve` runs the app: the access log, HTTPS with a kept certificate, proxies.

- Plain HTTP (the default) and behind a reverse proxy: waitress, in one process per core (at
  most 4; `--workers N` says otherwise). With SCOREKEEPER_PROXY=1 it is told to trust the
  proxy's X-Forwarded-For/-Proto/-Host/-Port (from the addresses in
  SCOREKEEPER_TRUSTED_PROXY, default 127.0.0.1), which it otherwise strips before the app
  can see them.
- `--https`: cheroot, which speaks TLS itself, with a self-signed certificate made once and
  kept in the instance folder (`tls/cert.pem`, `tls/key.pem`).
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import os
import re
import socket
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

#: The game links' secret part: /g/<token>, /v/<token> (and anything under them).
_TOKEN_PATH = re.compile(r"^/([gv])/[^/]+")


def masked_path(path: str) -> str:
    """The path as the log shows it: the game's secret token replaced by ***."""
    return _TOKEN_PATH.sub(r"/\1/***", path)


class AccessLog:
    """One line per request on a stream: method, path (tokens masked, no query), status, ms."""

    def __init__(self, app: WSGIApp, stream: IO[str] | None = None) -> None:
        self.app = app
        self.stream = stream

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        started = time.perf_counter()
        status = ["-"]

        def recording_start(code: str, headers: list[tuple[str, str]], *exc: Any) -> Any:
            status[0] = code.split(" ", 1)[0]
            return start_response(code, headers, *exc)

        body = self.app(environ, recording_start)
        return _Closing(body, lambda: self._write(environ, status[0], started))

    def _write(self, environ: dict[str, Any], status: str, started: float) -> None:
        ms = (time.perf_counter() - started) * 1000
        path = masked_path(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""))
        line = f"{environ.get('REQUEST_METHOD', '-')} {path} {status} {ms:.1f}ms\n"
        stream = self.stream or sys.stderr
        try:
            stream.write(line)
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr must not fail the request
            pass


class _Closing:
    """A response body that runs `done` once the server has sent it (or given up)."""

    def __init__(self, body: Iterable[bytes], done: Callable[[], None]) -> None:
        self.body = body
        self.done = done

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.done()


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


# -- the servers -----------------------------------------------------------------------------


def web_app(db: str | None, *, https: bool = False) -> Any:
    """The web app `serve` runs, with its configuration (instance/config.py, SCOREKEEPER_*),
    --db on top; with https, its cookies are Secure."""
    from scorekeeper.web import create_app

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
    import urllib.parse

    from scorekeeper.web.wire import offer_certificate

    folder = Path(app.instance_path) / "tls"
    try:
        cert, key = certificate(folder, [urllib.parse.urlsplit(u).hostname or "" for u in urls])
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), str(folder)) from error
    offer_certificate(app, cert)
    return cert, key


MAX_DEFAULT_WORKERS = 4
"""Processes `serve` starts by default at most, whatever the cores: each keeps its own games."""


def default_workers(*, https: bool) -> int:
    """Processes `serve` starts unless told: one per core this process may run on (Python runs
    one thread at a time in a process), at most MAX_DEFAULT_WORKERS; one over TLS, or where
    processes cannot be forked."""
    if https or not hasattr(os, "fork"):
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cores or 1, MAX_DEFAULT_WORKERS))


def server(
    app: Any, host: str, port: int, *, threads: int, workers: int, tls: tuple[Path, Path] | None
) -> Any:
    """The server `serve` runs (bound already: a busy port raises OSError here): cheroot over
    TLS, waitress in `workers` processes, or waitress; each request in the access log."""
    app.config["WORKERS"] = 1 if tls is not None else workers  # the password count shares
    logged = AccessLog(app)
    if tls is not None:
        return TLSServer(logged, host, port, threads, *tls)
    proxy = str(app.config.get("TRUSTED_PROXY") or "127.0.0.1")
    trusted = proxy if app.config.get("PROXY") else None
    if workers > 1:
        return Workers(logged, host, port, threads, trusted, workers)
    return waitress_server(logged, host, port, threads, trusted)


def waitress_server(
    app: WSGIApp,
    host: str,
    port: int,
    threads: int,
    proxy: str | None,
    *,
    sockets: list[socket.socket] | None = None,
) -> Any:
    """The plain-HTTP server; `proxy` is the address(es) whose X-Forwarded-* are trusted.
    With `sockets`, it accepts on those (already listening) instead of binding host:port."""
    import waitress

    trust: dict[str, Any] = {}
    if proxy:
        trust = {
            "trusted_proxy": proxy,
            "trusted_proxy_count": 1,
            "trusted_proxy_headers": {
                "x-forwarded-for",
                "x-forwarded-proto",
                "x-forwarded-host",
                "x-forwarded-port",
            },
        }
    where: dict[str, Any] = {"sockets": sockets} if sockets else {"host": host, "port": port}
    server = waitress.create_server(
        app,
        **where,
        threads=threads,
        ident="scorekeeper",
        # Phones keep idle connections open for minutes: waitress's default of 100 would
        # leave the 101st phone hanging (bench/bench_load.py, docs/capacity.md).
        connection_limit=1000,
        asyncore_use_poll=True,
        **trust,
    )
    channel = _keep_alive_channel()
    for listener in [server, *getattr(server, "map", {}).values()]:
        if hasattr(listener, "channel_class"):
            listener.channel_class = channel
    return server


def _keep_alive_channel() -> Any:
    """waitress's connection, minus one habit: closing after every 304 and 204.

    waitress ends the connection after any reply without a Content-Length, and a 304 (the
    answer to nearly every poll of a following phone) may not carry one; so each poll paid a
    new TCP connection. A reply with no body needs no length to end: keep the connection.
    """
    from waitress.channel import HTTPChannel
    from waitress.task import WSGITask

    class KeepAliveTask(WSGITask):  # type: ignore[misc]
        def set_close_on_finish(self) -> None:
            if (
                not self.has_body
                and not self.wrote_header
                and self.version == "1.1"
                and self.request.headers.get("CONNECTION", "").lower() != "close"
                and self.status[:3] in ("204", "304")
            ):
                return
            super().set_close_on_finish()

    class KeepAliveChannel(HTTPChannel):  # type: ignore[misc]
        task_class = KeepAliveTask

    return KeepAliveChannel


class Workers:
    """The plain-HTTP server in several processes that share one listening socket.

    Python runs one thread at a time in a process, so one process uses one core however
    many threads it has; on a machine with more cores a busy evening (dozens of tables
    saving at once) is served by as many processes. Every state the processes keep is
    named by a game's version, so what one process keeps is never stale in another. The
    wrong-password count (web/attempts.py) is kept per process, each allowing its share of
    the tries. A worker that dies is started again; stopping the parent stops them all, and
    a parent killed outright takes its workers with it (so the port is free again).
    """

    def __init__(
        self, app: WSGIApp, host: str, port: int, threads: int, proxy: str | None, count: int
    ) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.socket.bind((host, port))  # a busy port fails here, with a clear message
            self.socket.listen(1024)
        except OSError:
            self.socket.close()
            raise
        self.socket.setblocking(False)
        self._make = lambda: waitress_server(app, host, port, threads, proxy, sockets=[self.socket])
        self.count = count
        self._parent = os.getpid()
        self._children: set[int] = set()
        self._stopping = False

    def run(self) -> None:
        import signal

        def stop(signum: int, _frame: object) -> None:
            self._stopping = True
            for pid in list(self._children):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        try:
            for _ in range(self.count):
                self._start()
            while self._children:
                try:
                    pid, status = os.wait()
                except ChildProcessError:
                    break
                self._children.discard(pid)
                if not self._stopping:
                    print(f"a worker stopped ({status}); starting another", file=sys.stderr)
                    time.sleep(0.5)
                    self._start()
        except KeyboardInterrupt:
            stop(signal.SIGINT, None)
            while self._children:
                with contextlib.suppress(ChildProcessError):
                    self._children.discard(os.wait()[0])
            raise
        finally:
            self.socket.close()

    def _start(self) -> None:
        pid = os.fork()
        if pid:
            self._children.add(pid)
            return
        import signal

        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _end_with_parent(self._parent)
        try:
            self._make().run()
        except KeyboardInterrupt:
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
        os._exit(0)


def _end_with_parent(parent: int) -> None:
    """Have the kernel stop this worker when the process that forked it dies, even by kill -9
    (Linux's PR_SET_PDEATHSIG; elsewhere a stopped parent still stops its workers)."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it died before that was set
        os._exit(0)


class TLSServer:
    """cheroot serving the app over TLS; `run()` blocks until interrupted."""

    def __init__(
        self, app: WSGIApp, host: str, port: int, threads: int, cert: Path, key: Path
    ) -> None:
        from cheroot import wsgi
        from cheroot.ssl.builtin import BuiltinSSLAdapter

        self.server = wsgi.Server(
            (host, port), app, numthreads=threads, server_name="scorekeeper", timeout=30
        )
        self.server.ssl_adapter = BuiltinSSLAdapter(str(cert), str(key))
        self.server.prepare()  # binds now: a busy port fails here with a clear message

    def run(self) -> None:
        try:
            self.server.serve()
        finally:
            self.server.stop()
