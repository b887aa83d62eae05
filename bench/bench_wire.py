"""Benchmark: bytes and connections on the wire, against the real `scorekeeper serve`.

Run: .venv/bin/python bench/bench_wire.py
Prints, for a 40-deal game: what a phone downloads to open the game page the first time and
the second time (HTML + CSS + JS + icon), without compression and as a browser asks for it
(Accept-Encoding: br, gzip); the scorer's deal form; and how many TCP connections a following
phone opens for 60 unchanged polls.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper.sample import random_game

CLI = Path(sys.executable).with_name("scorekeeper")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Counting:
    """One keep-alive client that counts the bytes received and the connections opened."""

    def __init__(self, port: int, encoding: str | None) -> None:
        self.port = port
        self.encoding = encoding
        self.conn: http.client.HTTPConnection | None = None
        self.connections = 0
        self.bytes = 0

    def get(self, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.connections += 1
        sent = dict(headers or {})
        if self.encoding:
            sent["Accept-Encoding"] = self.encoding
        self.conn.request("GET", path, headers=sent)
        response = self.conn.getresponse()
        body = response.read()
        head = sum(len(k) + len(v) + 4 for k, v in response.getheaders()) + 17
        self.bytes += head + len(body)
        response.body = body  # type: ignore[attr-defined]
        if response.will_close:
            self.conn.close()
            self.conn = None
        return response


def page_with_assets(client: Counting, path: str, cache: dict[str, str]) -> int:
    """Bytes to show a page, with a browser cache of static files (url → etag)."""
    before = client.bytes
    client.get(path)
    for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', _plain_html(client.port, path)):
        if "?v=" in url and url in cache:
            continue  # versioned and immutable: not even asked for
        headers = {"If-None-Match": cache[url]} if url in cache else {}
        response = client.get(url, headers)
        cache[url] = response.headers.get("ETag", "")
    return client.bytes - before


def _plain_html(port: int, path: str) -> str:
    """The page as text, only to list its files (not counted)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    text = conn.getresponse().read().decode()
    conn.close()
    return text


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    data = random_game(random.Random(40), 40, convention="sochi", players=3)
    data["options"] = {**data.get("options", {}), "pool_target": 100000}
    game_file = folder / "game.json"
    game_file.write_text(json.dumps(data))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env["SCOREKEEPER_INSTANCE"] = str(folder / "instance")
    db = str(folder / "games.sqlite")
    out = subprocess.run(
        [str(CLI), "import", str(game_file), "--db", db], env=env, capture_output=True, text=True
    ).stdout
    token = re.search(r"edit: \S*/g/(\S+)", out).group(1)  # type: ignore[union-attr]
    port = free_port()
    server = subprocess.Popen(
        [str(CLI), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):
            try:
                Counting(port, None).get("/healthz")
                break
            except OSError:
                time.sleep(0.05)
        print(f"{'':38}{'plain':>10}{'br/gzip':>10}")
        rows = {}
        for encoding in (None, "br, gzip"):
            client, cache = Counting(port, encoding), {}
            rows.setdefault("game page, first visit", []).append(
                page_with_assets(client, f"/g/{token}", cache)
            )
            rows.setdefault("game page, second visit", []).append(
                page_with_assets(client, f"/g/{token}", cache)
            )
            rows.setdefault("deal form (scorer)", []).append(
                page_with_assets(client, f"/g/{token}/deal/new", cache)
            )
        for name, (plain, packed) in rows.items():
            print(f"{name:38}{plain / 1024:>8.1f}KB{packed / 1024:>8.1f}KB")
        poller = Counting(port, "br, gzip")
        first = poller.get(f"/v/{token}/version")
        etag = first.headers["ETag"]
        before = poller.bytes
        for _ in range(60):
            poller.get(f"/v/{token}/version", {"If-None-Match": etag})
        print(
            f"60 unchanged polls: {poller.connections} TCP connection(s), "
            f"{(poller.bytes - before) / 1024:.1f} KB down"
        )
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
