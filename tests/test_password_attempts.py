"""The server password cannot be guessed: five wrong tries a minute per client, then a wait."""

from __future__ import annotations

import io

import pytest
from flask import Flask

from scorekeeper.store import Store
from scorekeeper.web.attempts import LIMIT, Attempts

from .harness import Web
from .helpers import newest_game


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


@pytest.mark.parametrize("late", [60.0, 61.0, 300.0])
def test_the_window_passes(late: float) -> None:
    attempts = Attempts()
    for n in range(LIMIT):
        attempts.failed("a", float(n))
    assert attempts.wait_seconds("a", float(LIMIT)) == 55
    assert attempts.wait_seconds("a", late) == 0


def test_the_count_is_kept_in_a_file_every_process_of_the_server_shares(
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
    assert (tmp_path / "scorekeeper.limits.sqlite").is_file()


def test_a_shared_count_that_cannot_be_kept_falls_back_to_the_process(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from scorekeeper.web import create_app

    app = create_app({"DATABASE": str(tmp_path / "g.sqlite"), "SECRET_KEY": "s"})
    app.config.update(PASSWORD="1234")
    (tmp_path / "g.limits.sqlite").mkdir()  # not a file: the count stays in memory
    web = Web(app.test_client())
    statuses = [_try_new(web, f"{guess:04d}").status for guess in range(LIMIT + 1)]
    assert statuses == [422] * LIMIT + [429]
