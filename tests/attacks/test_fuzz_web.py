"""Fuzz every form field of every route (issue 22): the hostile corpus of tests/fuzzing.py
into the fields of the real forms (game, deal, company, roster, evening, payment, links,
import of a game or company file), through the Flask test client on a real SQLite file.

The bar: no 5xx and no traceback; every refusal a 4xx page of the app's own with a message.
FUZZ_EXAMPLES requests per test (a few hundred by default; 10,000 in the long run).
"""

from __future__ import annotations

import io
import json
import re
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scorekeeper.store import Store
from scorekeeper.store.companies import Companies
from scorekeeper.web import create_app
from scorekeeper.web.options import preset_values

from ..fuzzing import FUZZ_EXAMPLES, hostile_file, hostile_text, to_json
from ..harness import SEVEN_DOWN_TWO, Web, forms_of, with_rules
from ..helpers import count

PLAYERS = ["Anna", "Boris", "Vera"]


@dataclass
class Target:
    """One form to attack: where it posts, the fields a real tap sends, the file field."""

    url: str
    fields: dict[str, list[str]]
    upload: str | None = None
    good_file: Any = None
    extra: list[str] = field(default_factory=list)


@dataclass
class World:
    app: Flask
    client: FlaskClient
    targets: dict[str, Target]
    gets: list[str]
    counter: dict[str, int]


def _form(web: Web, url: str, which: str) -> dict[str, list[str]]:
    return web.get(url).form(which).data()


GAME_FILE = {
    "format": "scorekeeper-game/1",
    "name": "Friday",
    "convention": "sochi",
    "options": {"pool_target": 20, "stake": "0.10"},
    "players": PLAYERS,
    "first_dealer": "Anna",
    "deals": [
        {
            "type": "contract",
            "declarer": "Anna",
            "contract": "7S",
            "answers": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Anna": 5, "Boris": 3, "Vera": 2},
        },
        {"type": "allpass", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}},
        {
            "type": "correction",
            "reason": "agreed",
            "entries": [
                {"player": "Boris", "hill": 2},
                {"player": "Anna", "whists_on": "Vera", "amount": "1/2"},
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    where = tmp_path_factory.mktemp("fuzz")
    db = where / "fuzz.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "fuzz"})
    client = app.test_client()
    web = Web(client)
    game = web.new_game(PLAYERS)
    web.play(game, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    spare = web.new_game(PLAYERS)  # links replaced, deleted, restored: its own game
    new_company = web.get("/company/new")
    form = new_company.form("new-company").set(name="Fridays", roster="Anna\nBoris\nVera\nGleb")
    for name, value in preset_values("sochi").items():
        form.set(**{name: ("y" if value else None) if isinstance(value, bool) else value})
    created = web.submit(new_company, form)
    assert created.status == 302, created.errors()
    company = created.response.headers["Location"].rsplit("/", 1)[-1]
    with Store(db) as store:
        roster = Companies(store).get(company).roster
        record = store.get_game(game)
        deal_id = record.deals[0].id
        Companies(store).attach(
            company, record.id, {n: p.id for n, p in zip(PLAYERS, roster[:3], strict=True)}
        )
    pid = roster[0].id
    ids = "&".join(f"player={p.id}" for p in roster[:3])
    company_page = web.get(f"/c/{company}")
    exported = json.loads(client.get(f"/c/{company}/company.json").data)
    deal_page, deal_form = web.deal_form(game)
    web.fill_deal(deal_form, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    deal_fields = {**deal_form.data(), "action": ["check"]}
    forms = {
        f.action or f.id: f.data() for f in forms_of(company_page.response.get_data(as_text=True))
    }

    def company_form(action: str) -> dict[str, list[str]]:
        for key, data in forms.items():
            if key.endswith(action):
                return data
        raise AssertionError(f"no form {action} on the company page: {sorted(forms)}")

    csrf = deal_fields["csrf_token"]
    version = str(store_version(db, game))
    pay = {**company_form("/pay"), "payer": [str(roster[0].id)], "payee": [str(roster[1].id)]}
    pay.update(amount=["12.50"], paid_on=["2026-11-20"], game=[str(record.id)])
    targets = [
        Target(
            "/new",
            with_rules(
                _form(web, "/new", "new-game"),
                name="Friday",
                convention="sochi",
                rendered_preset="sochi",
                player_0="Anna",
                player_1="Boris",
                player_2="Vera",
                first_dealer="0",
            ),
        ),
        Target("/import", _form(web, "/import", ""), "file", GAME_FILE),
        Target(
            "/company/import",
            _form(web, "/company/import", "import-company"),
            "file",
            exported,
        ),
        Target(
            "/company/new",
            with_rules(
                _form(web, "/company/new", "new-company"),
                name="Fridays",
                roster="Anna\nBoris\nVera",
                convention="sochi",
                rendered_preset="sochi",
            ),
        ),
        Target(f"/c/{company}/rules", _form(web, f"/c/{company}/rules", "company-rules")),
        Target(f"/c/{company}/players", {**company_form("/players"), "name": ["Dima"]}),
        Target(f"/c/{company}/players/{pid}", company_form(f"/players/{pid}")),
        Target(
            f"/c/{company}/evening?{ids}",
            _form(web, f"/c/{company}/evening?{ids}", "evening-form"),
            extra=[f"seat_{i}" for i in range(5)],
        ),
        Target(f"/c/{company}/attach", {**company_form("/attach"), "link": [spare]}),
        Target(f"/c/{company}/pay", pay),
        Target(f"/g/{game}/deal/new", {**deal_fields, "action": ["save"]}),
        Target(f"/g/{game}/deal/check", deal_fields),
        Target(f"/g/{game}/deal/{deal_id}/edit", deal_fields),
        Target(f"/g/{game}/deal/{deal_id}/check", deal_fields),
        Target(f"/g/{spare}/links/edit", _form(web, f"/g/{spare}/links", f"/g/{spare}/links/edit")),
        Target(f"/g/{spare}/delete", _form(web, f"/g/{spare}/delete", "")),
        Target(f"/g/{game}/finish", {"csrf_token": csrf, "version": [version]}),
        Target(f"/g/{game}/reopen", {"csrf_token": csrf, "version": [version]}),
        Target(
            f"/g/{game}/extend", {"csrf_token": csrf, "version": [version], "pool_target": ["40"]}
        ),
        Target("/forget", {"csrf_token": csrf, "token": [spare]}),
        Target(f"/g/{game}/rematch", {"csrf_token": csrf}),
        Target(f"/g/{game}/deal/{deal_id}/delete", {"csrf_token": csrf, "version": [version]}),
        Target(f"/g/{game}/undo", {"csrf_token": csrf, "version": [version]}),
        Target(f"/g/{game}/restore/1", {"csrf_token": csrf, "version": [version]}),
        Target(f"/g/{game}/rescore", {"csrf_token": csrf, "version": [version]}),
        Target(f"/g/{spare}/restore-game", {"csrf_token": csrf}),
        Target(f"/c/{company}/payments/1/delete", {"csrf_token": csrf, "version": ["0"]}),
    ]
    # Each form as it stands is a real tap the server takes (so the hostile values reach
    # as deep as a real one does): checked once, before the fuzzing.
    for target in targets[:4] + [targets[9], targets[11]]:
        if target.upload:
            body = multipart(target.fields, target.upload, to_json(target.good_file))
            answer = client.post(target.url, data=body, content_type="multipart/form-data")
        else:
            answer = client.post(
                target.url,
                data=encode(target.fields),
                content_type="application/x-www-form-urlencoded",
            )
        assert answer.status_code in (200, 302), (target.url, answer.get_data(as_text=True)[:3000])
        if answer.status_code == 200:
            assert 'class="error' not in answer.get_data(as_text=True), target.url
    view = json.loads(client.get(f"/g/{game}.json").data).get("view_token", game)
    gets = [
        "/?lang={}",
        f"/c/{company}?period={{}}",
        f"/cv/{Companies_view(db, company)}/standings.csv?period={{}}",
        f"/c/{company}/evening?player={{}}",
        f"/g/{game}/version?v={{}}",
        f"/v/{view}?lang={{}}",
    ]
    counts: dict[str, int] = {}
    by_key = dict(zip(TARGETS, targets, strict=True))
    yield World(app, client, by_key, gets, counts)
    total = sum(counts.values())
    print(f"\n{total} requests; by status: {dict(sorted(counts.items()))}; {world_count(db)}")


def store_version(db: Path, token: str) -> int:
    with Store(db) as store:
        return store.get_game(token).version


def Companies_view(db: Path, token: str) -> str:  # noqa: N802
    with Store(db) as store:
        return Companies(store).get(token).view_token


def world_count(db: Path) -> str:
    with Store(db) as store:
        games, deals = count(store, "games"), count(store, "deals")
    return f"fuzzed database: {games} games, {deals} deals"


def encode(fields: dict[str, list[str]]) -> bytes:
    """A form body as a browser sends it; a lone surrogate goes out as the bytes Python's
    surrogatepass makes (invalid UTF-8, as a broken client might send)."""
    parts = []
    for name, values in fields.items():
        for value in values:
            raw = value.encode("utf-8", "surrogatepass")
            parts.append(f"{urllib.parse.quote_plus(name)}={urllib.parse.quote_plus(raw)}")
    return "&".join(parts).encode()


def multipart(fields: dict[str, list[str]], name: str, data: bytes) -> dict[str, Any]:
    out: dict[str, Any] = {
        k: [v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for v in vs]
        for k, vs in fields.items()
    }
    out[name] = (io.BytesIO(data), "file.json")
    return out


WERKZEUG_DEFAULT = re.compile(r"<title>\d{3} [A-Za-z ]+</title>")


#: Forms whose answer to a tap is the same form again (a check shows what the deal would
#: write, or what is wrong with it, and nothing is written): their 200 is no refusal.
PREVIEWS = ("check new deal", "check edited deal", "new deal", "edit deal")
#: Pages that ask first ("Delete deal 3?"): a tap they cannot take asks again, writing nothing.
PREVIEWS += ("delete deal", "undo")


def follow(world: World, response: Any) -> None:
    """Open the page a redirect leads to, as a browser does (its message is shown, and so
    leaves the session cookie)."""
    if response.status_code in (302, 303):
        location = response.headers["Location"]
        assert_answered(world.client.get(location), f"GET {location}", world.counter)


def assert_answered(
    response: Any, what: str, counts: dict[str, int], key: str | None = None
) -> None:
    status = response.status_code
    if key is not None and key not in PREVIEWS and status == 200:
        raise AssertionError(f"{what}: a refusal answered 200, not a 4xx")
    counts[str(status)] = counts.get(str(status), 0) + 1
    body = response.get_data(as_text=True)
    assert status < 500, f"{what}: {status}\n{body[:1500]}"
    assert "Traceback" not in body, what
    if status >= 400:
        assert body.strip(), f"{what}: a {status} with nothing to read"
        assert not WERKZEUG_DEFAULT.search(body), f"{what}: a bare {status} page: {body[:300]}"


TARGETS = [
    "new game",
    "game import",
    "company import",
    "new company",
    "company rules",
    "add player",
    "rename player",
    "evening",
    "attach",
    "payment",
    "new deal",
    "check new deal",
    "edit deal",
    "check edited deal",
    "replace link",
    "delete game",
    "finish",
    "reopen",
    "extend",
    "forget",
    "rematch",
    "delete deal",
    "undo",
    "restore a revision",
    "rescore",
    "restore game",
    "delete payment",
]
PER_TARGET = max(15, FUZZ_EXAMPLES // len(TARGETS))


@pytest.mark.parametrize("key", TARGETS)
@settings(
    max_examples=PER_TARGET,
    deadline=None,
    derandomize=FUZZ_EXAMPLES <= 1000,
    suppress_health_check=list(HealthCheck),
    database=None,
    phases=[Phase.generate],  # the database changes under the test: no replay, no shrinking
)
@given(data=st.data())
def test_every_form_field_refuses_hostile_text_with_a_4xx_and_a_message(
    world: World, key: str, data: st.DataObject
) -> None:
    target = world.targets[key]
    names = sorted({*target.fields, *target.extra} - {"csrf_token"})
    fields = {k: list(v) for k, v in target.fields.items()}
    if names:
        # Mostly one field at a time: a hostile value in one field must meet the code that
        # reads that field, not a refusal of another field checked first.
        count = data.draw(st.one_of(st.just(1), st.just(1), st.integers(1, min(len(names), 10))))
        for name in data.draw(
            st.lists(st.sampled_from(names), min_size=count, max_size=count, unique=True)
        ):
            fields[name] = [data.draw(hostile_text())]
    if target.upload:
        content = data.draw(hostile_file(target.good_file))
        raw = to_json(content, ensure_ascii=data.draw(st.booleans()))
        response = world.client.post(
            target.url,
            data=multipart(fields, target.upload, raw),
            content_type="multipart/form-data",
        )
    else:
        response = world.client.post(
            target.url, data=encode(fields), content_type="application/x-www-form-urlencoded"
        )
    assert_answered(response, f"POST {target.url} {fields!r}"[:3000], world.counter, key)
    follow(world, response)


@settings(
    max_examples=max(50, FUZZ_EXAMPLES // 5),
    deadline=None,
    derandomize=FUZZ_EXAMPLES <= 1000,
    suppress_health_check=list(HealthCheck),
    database=None,
    phases=[Phase.generate],  # the database changes under the test: no replay, no shrinking
)
@given(data=st.data())
def test_every_query_argument_refuses_hostile_text(world: World, data: st.DataObject) -> None:
    url = data.draw(st.sampled_from(world.gets))
    value = data.draw(hostile_text()).encode("utf-8", "surrogatepass")
    full = url.format(urllib.parse.quote(value))
    response = world.client.get(full)
    assert_answered(response, f"GET {full[:300]}", world.counter)


SHARPEST = ["²", "9" * 5000 + "S", "\ud800\u202e"]
ROWS = re.compile(r"_([2-9]|\d\d)$")  # the deal form's correction rows 2 and on are as row 1


def test_every_field_of_every_form_with_the_sharpest_values(world: World) -> None:
    """A sweep, not a sample: each of these values alone in each field of each form."""
    failures = []
    for key, target in world.targets.items():
        names = sorted({*target.fields, *target.extra} - {"csrf_token"})
        for name in [n for n in names if not ROWS.search(n)]:
            for value in SHARPEST:
                fields = {k: list(v) for k, v in target.fields.items()}
                fields[name] = [value]
                if target.upload:
                    body = multipart(fields, target.upload, to_json(target.good_file))
                    kind = "multipart/form-data"
                else:
                    body, kind = encode(fields), "application/x-www-form-urlencoded"
                try:
                    response = world.client.post(target.url, data=body, content_type=kind)
                    assert_answered(response, f"{key}: {name}={value[:20]!r}", world.counter, key)
                    follow(world, response)
                except Exception as error:  # noqa: BLE001 - every failure is listed
                    failures.append(
                        f"{key}: {name}={value[:20]!r}: {type(error).__name__}: {error}"[:300]
                    )
    assert not failures, "\n".join(failures)
