"""Issue 32, item 5, the deploy files as a self-hoster uses them:

- the systemd unit is hardened: `systemd-analyze security` rates it OK (under 2.0; it was
  8.3 EXPOSED), and every directive the issue names is in it;
- the nginx block of docs/deploy.md, its headers filled as nginx fills them for a server on
  port 8443, makes the real server's links name that port (and none on 443).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable

import pytest

from ..harness import ROOT
from ..served import Browser, Served, view_link

UNIT = ROOT / "deploy" / "scorekeeper.service"


def directives(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_unit_carries_the_usual_hardening() -> None:
    unit = directives(UNIT.read_text())
    for key in (
        "ProtectSystem",
        "PrivateDevices",
        "ProtectKernelTunables",
        "ProtectKernelModules",
        "ProtectKernelLogs",
        "RestrictAddressFamilies",
        "SystemCallFilter",
        "UMask",
        "NoNewPrivileges",
    ):
        assert key in unit, key
    assert unit["UMask"] == ["0077"] and unit["ProtectSystem"] == ["strict"]
    assert set(unit["RestrictAddressFamilies"][0].split()) == {"AF_INET", "AF_INET6", "AF_UNIX"}


def test_systemd_analyze_rates_the_unit_ok() -> None:
    assert shutil.which("systemd-analyze"), "systemd-analyze: scripts/setup.sh --test installs it"
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\w+)", done.stdout)
    assert found, done.stdout + done.stderr
    print(f"systemd-analyze security: {found.group(1)} {found.group(2)}")
    assert float(found.group(1)) < 2.0 and found.group(2) == "OK"


def nginx_headers(port: int) -> dict[str, str]:
    """The proxy_set_header lines of the documented nginx block, as nginx fills them for a
    client of https://pulka.example.org:<port>/ at 203.0.113.9."""
    doc = (ROOT / "docs" / "deploy.md").read_text()
    block = doc[doc.index("### nginx") :]
    block = block[: block.index("## As a service")]
    values = {
        "$host": "pulka.example.org",
        "$server_port": str(port),
        "$scheme": "https",
        "$remote_addr": "203.0.113.9",
    }
    headers: dict[str, str] = {}
    for name, value in re.findall(r"proxy_set_header\s+(\S+)\s+(\S+);", block):
        value = value.strip('"')
        for variable, filled in values.items():
            value = value.replace(variable, filled)
        if name not in ("Connection", "Host") and value:
            headers[name] = value
    assert {"X-Forwarded-Host", "X-Forwarded-Proto"} <= set(headers), headers
    return headers


@pytest.mark.parametrize(("port", "public"), [(8443, ":8443"), (443, "")])
def test_the_nginx_blocks_headers_keep_a_port_other_than_443(
    serve: Callable[..., Served], port: int, public: str
) -> None:
    served = serve(env={"SCOREKEEPER_TRUSTED_PROXY": "127.0.0.1"})
    phone = Browser(served, nginx_headers(port))
    token = phone.new_game()
    status, _, html = phone.request("GET", f"/g/{token}")
    assert status == 200
    assert view_link(html).startswith(f"https://pulka.example.org{public}/v/")


def settings_the_code_reads() -> set[str]:
    """Every SCOREKEEPER_* name in the package, those config.py composes from its lists, and
    the other variables it reads for an operator."""
    from scorekeeper import config

    names = {f"SCOREKEEPER_{key}" for key in (*config.TEXT_SETTINGS, *config.BOOLEAN_SETTINGS)}
    for source in (ROOT / "scorekeeper").rglob("*.py"):
        names |= set(re.findall(r"\bSCOREKEEPER_[A-Z][A-Z_]*[A-Z]\b", source.read_text()))
    return names | {"PROMETHEUS_MULTIPROC_DIR", "XDG_DATA_HOME", "PGPASSWORD"}


def test_docs_name_every_setting_the_code_reads() -> None:
    doc = (ROOT / "docs" / "deploy.md").read_text()
    table = doc[doc.index("## Settings") : doc.index("## Behind a reverse proxy")]
    found = settings_the_code_reads()
    assert len(found) >= 20, sorted(found)
    missing = sorted(name for name in found if f"`{name}" not in doc)
    assert not missing, f"docs/deploy.md does not name {missing}"
    untabled = sorted(n for n in found if n.startswith("SCOREKEEPER_") and n not in table)
    assert not untabled, f"not in docs/deploy.md's Settings table: {untabled}"
