"""Issue 49, item 5: deploy/compose.hosted.yaml brought up for real, with podman-compose
(Debian's podman and podman-compose; `.ci/run` installs them).

The app's image is built from the Dockerfile by podman-compose, as `docker compose` would;
Docker Hub cannot be reached from here, so the images it would pull are made from Debian's
packages: a debootstrap'd bookworm (python3, pip, Pango, tini, PostgreSQL 15, Caddy) is the
Dockerfile's `BASE`, and PostgreSQL and Caddy run from it started as their official images
start (tests/containers/). A small override file names those two images and the secrets'
files; everything else is the shipped compose file as it is: its build, its secrets, its
settings, its network, its published ports.

The test brings up PostgreSQL, the two hosts and Caddy, checks the settings reached the
containers as written (podman-compose once passed `${VAR:-}` on literally) and as Docker
Compose reads them (`docker-compose config`: no engine needed), creates a game and
saves deals through Caddy over HTTPS, sees both hosts answer, looks for the database password
and the secret key in every log, in podman-compose's output and in the hosts' environment,
and tears everything down (volumes included).

If podman is installed but cannot start a container on this machine at all, the test is
skipped saying podman's own error; anything else that goes wrong fails.
"""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from ..deploy_harness import requests_answered
from ..harness import ANSWER_SECONDS, ROOT, until
from ..served import Phone, checked, correction, new_game, reasons_of

CONTAINERS = ROOT / "tests" / "containers"
DEPLOY = ROOT / "deploy"
BASE = "localhost/scorekeeper-test-base:bookworm"
STAND_INS = {
    "db": "localhost/scorekeeper-test-postgres",
    "caddy": "localhost/scorekeeper-test-caddy",
}
PROJECT = "scorekeeper-compose-test"
#: The debootstrap'd base, kept between runs (a first run takes it from Debian's mirror).
CACHE = Path(os.environ.get("SCOREKEEPER_TEST_CACHE", ROOT / ".cache")) / "podman"
PACKAGES = (
    "python3-pip,python-is-python3,ca-certificates,tini,libpango-1.0-0,libpangoft2-1.0-0,"
    "libharfbuzz-subset0,fonts-dejavu-core,postgresql-15,caddy"
)
BUILD_SECONDS = 1800
HEALTHY = (
    '"GET /healthz HTTP/1.1" 200 '  # a first build downloads a Debian system and the app's wheels
)


def run(*args: str, env: dict[str, str] | None = None, stdout_only: bool = False) -> str:
    """Run a command to its end; its output (both streams unless `stdout_only`), or a
    failure that shows it."""
    done = subprocess.run(
        args, capture_output=True, text=True, timeout=BUILD_SECONDS, env=env, cwd=DEPLOY
    )
    assert done.returncode == 0, f"{' '.join(args)}: exit {done.returncode}\n{done.stderr[-3000:]}"
    return done.stdout if stdout_only else done.stdout + done.stderr


def engine_env() -> dict[str, str]:
    """podman's settings for this machine (tests/containers/containers.conf)."""
    return {**os.environ, "CONTAINERS_CONF": str(CONTAINERS / "containers.conf")}


def base_rootfs() -> Path:
    """A tarball of Debian bookworm with what the images need, made once and kept. It trusts
    what this machine trusts (its CA bundle), so a proxy in between works in the build too."""
    tarball = CACHE / "bookworm.tar"
    if tarball.exists():
        return tarball
    rootfs = CACHE / "rootfs"
    shutil.rmtree(rootfs, ignore_errors=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    run("debootstrap", "--variant=minbase", f"--include={PACKAGES}", "bookworm", str(rootfs))
    shutil.rmtree(rootfs / "var" / "cache" / "apt" / "archives", ignore_errors=True)
    shutil.copy("/etc/ssl/certs/ca-certificates.crt", rootfs / "etc/ssl/certs/ca-certificates.crt")
    run("tar", "-C", str(rootfs), "-cf", f"{tarball}.part", ".")
    os.replace(f"{tarball}.part", tarball)
    shutil.rmtree(rootfs)
    return tarball


def ensure_images(env: dict[str, str]) -> None:
    """The base image (imported once) and the PostgreSQL and Caddy stand-ins on it."""
    if subprocess.run(["podman", "image", "exists", BASE], env=env).returncode != 0:
        run(
            "podman", "import", "--change", "ENV=PIP_BREAK_SYSTEM_PACKAGES=1",
            str(base_rootfs()), BASE, env=env,
        )  # fmt: skip
    probe = subprocess.run(
        ["podman", "run", "--rm", BASE, "true"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    if probe.returncode != 0:
        pytest.fail(f"podman cannot run a container on this machine: {probe.stderr.strip()}")
    for service, image in STAND_INS.items():
        name = "postgres" if service == "db" else service
        run(
            "podman", "build", "-q", "--build-arg", f"BASE={BASE}", "-t", image,
            "-f", str(CONTAINERS / f"{name}.Containerfile"), str(CONTAINERS), env=env,
        )  # fmt: skip


def override(tmp_path: Path) -> Path:
    """What differs from the shipped file: the two images made here, and the secrets' files
    outside the work tree (deploy/secrets/ may hold an operator's own)."""
    images = "".join(f"  {service}:\n    image: {image}\n" for service, image in STAND_INS.items())
    files = ""
    for name in ("db_password", "secret_key"):
        (tmp_path / name).write_text(secrets.token_hex(24) + "\n")
        (tmp_path / name).chmod(0o644)  # read by the containers' own users
        files += f"  {name}:\n    file: {tmp_path / name}\n"
    path = tmp_path / "override.yaml"
    path.write_text(f"services:\n{images}secrets:\n{files}")
    return path


def ports_free() -> None:
    for port in (80, 443):
        with socket.socket() as probe:
            taken = probe.connect_ex(("127.0.0.1", port)) == 0
        assert not taken, f"port {port} is taken: the compose file publishes Caddy's 80 and 443"


class TlsPhone(Phone):
    """A phone reaching Caddy's published HTTPS port as https://localhost/ (Caddy's own CA
    signs the certificate: not checked)."""

    def connection(self) -> http.client.HTTPConnection:
        unchecked = ssl.create_default_context()
        unchecked.check_hostname = False
        unchecked.verify_mode = ssl.CERT_NONE
        return http.client.HTTPSConnection(
            "localhost", 443, timeout=ANSWER_SECONDS, context=unchecked
        )


def answers(phone: Phone, path: str) -> int:
    try:
        return phone.get(path).status
    except OSError:
        return 0


class Stack:
    """The compose project, up."""

    def __init__(self, tmp_path: Path) -> None:
        self.files = ["-f", "compose.hosted.yaml", "-f", str(override(tmp_path))]
        self.secrets = [
            (tmp_path / name).read_text().strip() for name in ("db_password", "secret_key")
        ]
        self.env = {**engine_env(), "SCOREKEEPER_SITE": "localhost"}
        self.env.pop("SCOREKEEPER_SECRET_KEY", None)
        self.said: list[str] = []

    def compose(self, *args: str) -> str:
        self.said.append(run("podman-compose", "-p", PROJECT, *self.files, *args, env=self.env))
        return self.said[-1]

    def up(self) -> None:
        self.compose("build", "--build-arg", f"BASE={BASE}")
        ports_free()
        self.compose("up", "-d")

    def container(self, service: str) -> str:
        return f"{PROJECT}_{service}_1"

    def logs(self, service: str) -> str:
        return run("podman", "logs", self.container(service), env=self.env)

    def as_docker_compose_reads_it(self, service: str) -> dict[str, str]:
        """The service's environment as Docker Compose (Debian's docker-compose 1.29, which
        needs no engine for `config`) resolves the same files and settings."""
        said = run("docker-compose", *self.files, "config", env=self.env, stdout_only=True)
        self.said.append(said)  # looked at for the secrets too
        data: dict[str, Any] = yaml.safe_load(said)
        return {
            name: str(value) for name, value in data["services"][service]["environment"].items()
        }

    def image(self, service: str) -> str:
        return run("podman", "inspect", "-f", "{{.Image}}", self.container(service), env=self.env)

    def environment(self, service: str) -> dict[str, str]:
        lines = run("podman", "exec", self.container(service), "env", env=self.env)
        pairs = (line.partition("=") for line in lines.splitlines())
        return {name: value for name, _, value in pairs}


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    for tool in ("podman", "podman-compose", "docker-compose", "debootstrap"):
        assert shutil.which(tool), f"{tool}: scripts/setup.sh --test installs it"
    up = Stack(tmp_path)
    ensure_images(up.env)
    up.compose("down", "-v")  # what a run cut short left
    try:
        up.up()
        yield up
    finally:
        up.compose("down", "-v")
        # The images earlier builds left untagged (each rebuild leaves one), not their cache.
        run("podman", "image", "prune", "-f", "--filter", f"since={BASE}", env=up.env)


@pytest.mark.timeout(BUILD_SECONDS)
def test_the_hosted_compose_file_runs_two_hosts_on_postgresql_behind_caddy(
    stack: Stack, tmp_path: Path
) -> None:
    for host in ("app1", "app2"):  # the settings as written, under podman-compose too
        env = stack.environment(host)
        declared = stack.as_docker_compose_reads_it(host)
        assert {name: env[name] for name in declared} == declared, env
        assert env["SCOREKEEPER_BASE_URL"] == "https://localhost"
        assert env["SCOREKEEPER_SECRET_KEY_FILE"] == "/run/secrets/secret_key"
        assert env["SCOREKEEPER_DB"] == "postgresql://scorekeeper@db:5432/scorekeeper"
        assert not any(secret in "".join(env.values()) for secret in stack.secrets)
    assert stack.image("app1") == stack.image("app2")  # one image, built once
    phone = TlsPhone(443)
    for host in ("app1", "app2"):  # podman-compose starts them before the database is up
        until(lambda: HEALTHY in stack.logs(host), f"Caddy finds {host} healthy", pause=1)  # noqa: B023
    assert answers(phone, "/healthz") == 200
    token = new_game(phone)
    for n in range(6):
        fields = checked(phone, token, **correction(f"through the compose file {n}"))
        assert phone.post(f"/g/{token}/deal/new", fields).status == 302
    assert reasons_of(phone, token) == [f"through the compose file {n}" for n in range(6)]
    for host in ("app1", "app2"):  # Caddy shared the requests: each host answered some
        log = tmp_path / f"{host}.log"
        log.write_text(stack.logs(host))
        assert requests_answered(log, "/g/***") >= 1, log.read_text()[-2000:]
    every_line = "".join(stack.said) + "".join(
        stack.logs(s) for s in ("db", "app1", "app2", "caddy")
    )
    assert not any(secret in every_line for secret in stack.secrets)
