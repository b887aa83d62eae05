"""The hosted deploy's parts on loopback: Caddy with deploy/Caddyfile.hosted in front of
several `scorekeeper serve` hosts (the compose file's layout, without Docker)."""

from __future__ import annotations

import http.client
import os
import subprocess
import time
from pathlib import Path

from .harness import ROOT, stop_process
from .ports import free_port
from .served import NET_ERRORS, Phone

CADDYFILE_HOSTED = ROOT / "deploy" / "Caddyfile.hosted"


class HostedCaddy:
    """Caddy with the shipped deploy/Caddyfile.hosted, over plain HTTP on a free loopback
    port (TLS is the single-host Caddyfile's test), balancing the hosts on these ports."""

    def __init__(self, tmp: Path, upstream_ports: list[int]) -> None:
        self.port = free_port()
        self.home = tmp / f"caddy-{self.port}"
        self.home.mkdir()
        self.log = tmp / f"caddy-{self.port}.log"
        env = {
            **os.environ,
            "HOME": str(self.home),
            "XDG_DATA_HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home),
            "SCOREKEEPER_SITE": f"http://127.0.0.1:{self.port}",
            "SCOREKEEPER_UPSTREAMS": " ".join(f"127.0.0.1:{p}" for p in upstream_ports),
            "CADDY_GLOBAL": "admin off\nskip_install_trust",
        }
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                ["caddy", "run", "--config", str(CADDYFILE_HOSTED), "--adapter", "caddyfile"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )

    def wait(self, timeout: float = 30) -> HostedCaddy:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                if Phone(self.port).get("/healthz").status == 200:
                    return self
            except NET_ERRORS:
                pass
            time.sleep(0.1)
        raise AssertionError(f"Caddy did not answer:\n{self.log.read_text()}")

    def stop(self) -> None:
        stop_process(self.process)


def requests_answered(log: Path, path_part: str = "") -> int:
    """How many requests a host's access log shows (optionally only those naming a path)."""
    return sum(
        1
        for line in log.read_text(errors="replace").splitlines()
        if '" 200 ' in line or '" 302 ' in line
        if path_part in line
    )


def status_or_none(phone: Phone, path: str) -> int | None:
    """The status of a GET, or None when nothing answered at all."""
    try:
        return phone.get(path).status
    except (OSError, http.client.HTTPException):
        return None
