"""The server password cannot be guessed: five wrong tries a minute per client, then a wait."""

from __future__ import annotations

import io

import pytest
from flask import Flask

from scorekeeper import lockout
from scorekeeper.store import Store
from scorekeeper.web.attempts import LIMIT

from ..harness import Web
from ..helpers import newest_game


def _try_new(web: Web, password: str):  # type: ignore[no-untyped-def]
    from scorekeeper.web.options import preset_values

    page = web.get("/new")
    form = page.form("new-game")
    for field, value in preset_values("sochi").items():
        form.set(**{field: ("y" if value else None) if isinstance(value, bool) else value})
    form.set(name="x", player_0="Anna", player_1="Boris", player_2="Vera", first_dealer="0")
    return web.submit(page, form.set(password=password))


def test_guessing_on_new_is_stopped_with_the_wait_shown(app: Flask, web: Web, store: Store) -> None:
    app.config["PASSWORD"] = "1234"
    for guess in range(LIMIT):
        result = _try_new(web, f"{guess:04d}")
        assert result.status == 422
        assert "Wrong password" in result.errors()
    blocked = _try_new(web, "1234")  # even the right one waits now
    assert blocked.status == 429
    wait = int(blocked.response.headers["Retry-After"])
    assert 50 <= wait <= 60
    assert any(f"wait {wait} seconds" in e for e in blocked.errors()), blocked.errors()
    assert newest_game(store) is None


def test_guessing_on_import_is_stopped(app: Flask, web: Web, store: Store) -> None:
    app.config["PASSWORD"] = "1234"
    statuses = []
    for guess in range(LIMIT + 2):
        page = web.get("/import")
        form = page.form()
        response = web.client.post(
            "/import",
            data={**form.data(), "password": str(guess), "file": (io.BytesIO(b"{}"), "g.json")},
            content_type="multipart/form-data",
        )
        statuses.append(response.status_code)
    assert statuses == [400] * LIMIT + [429, 429]
    assert "Too many wrong passwords" in response.get_data(as_text=True)


def test_other_clients_are_not_held_up(app: Flask, web: Web) -> None:
    app.config["PASSWORD"] = "1234"
    for guess in range(LIMIT):
        _try_new(web, str(guess))
    assert _try_new(web, "1234").status == 429
    other = Web(app.test_client())
    other.client.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    assert _try_new(other, "1234").status == 302


@pytest.mark.parametrize(
    ("late", "waits"), [(5.0, 55), (59.5, 1), (60.0, 0), (61.0, 0), (300.0, 0)]
)
def test_the_window_passes(late: float, waits: int) -> None:
    assert lockout.wait([float(n) for n in range(LIMIT)], late) == waits
    assert lockout.wait([float(n) for n in range(1, LIMIT)], 5.0) == 0  # one fewer: no wait


def test_one_count_on_either_engine(store_location: str) -> None:
    with Store(store_location) as store:
        for _ in range(LIMIT - 1):
            lockout.failed(store, "10.0.0.1")
        assert lockout.wait_seconds(store, "10.0.0.1") == 0
        lockout.failed(store, "10.0.0.1")
        assert 55 <= lockout.wait_seconds(store, "10.0.0.1") <= 60
        assert lockout.wait_seconds(store, "10.0.0.2") == 0
        assert store.engine.value("SELECT count(*) FROM wrong_passwords") == LIMIT


def test_the_count_is_kept_in_the_database_every_process_of_the_server_shares(
    app: Flask, web: Web, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    from scorekeeper.web import create_app

    app.config["PASSWORD"] = "1234"
    for guess in range(LIMIT - 2):
        assert _try_new(web, f"{guess:04d}").status == 422
    # Another process of the same server (another app on the same database): it sees them.
    other = create_app(
        {"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "test secret"}
    )
    other.config["PASSWORD"] = "1234"
    second = Web(other.test_client())
    assert [_try_new(second, f"{g:04d}").status for g in range(3)] == [422, 422, 429]
    assert _try_new(web, "1234").status == 429
    with Store(app.config["DATABASE"]) as store:
        assert store.engine.value("SELECT count(*) FROM wrong_passwords") == LIMIT
    assert not list(tmp_path.glob("*.limits.sqlite"))  # no side file any more
