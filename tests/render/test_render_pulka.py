"""The pulka drawing: structure, running sums, names and totals, hostile names, long games."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from scorekeeper.gamefile import load
from scorekeeper.render.pulka import LAYOUTS, pulka_svg
from scorekeeper.rules import Sheet, score
from scorekeeper.wording import ENGLISH

amount = ENGLISH.amount

NS = {"svg": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"


def game(players: list[str], deals: list[dict[str, Any]], **extra: Any) -> Sheet:
    data = {
        "format": "scorekeeper-game/1",
        "convention": "hussar" if len(players) == 2 else "sochi",
        "players": players,
        "deals": deals,
        **extra,
    }
    return score(load(data))


def passed(declarer: str, contract: str, defenders: list[str]) -> dict[str, Any]:
    return {
        "type": "contract",
        "declarer": declarer,
        "contract": contract,
        "answers": {d: "pass" for d in defenders},
    }


def sums(sheet: Sheet, player: str, column: str, on: str | None = None) -> str:
    """The running sum as a paper sheet shows it: "2.6.10"."""
    return ".".join(amount(v) for v in sheet.running(player, column, on))


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def sector(root: ET.Element, player: str) -> ET.Element:
    (found,) = [g for g in root.iter(f"{SVG}g") if g.get("data-player") == player]
    return found


def chain_text(group: ET.Element, css: str, on: str | None = None) -> str:
    """The text of one running sum, its lines joined."""
    for g in group.iter(f"{SVG}g"):
        if css in (g.get("class") or "").split() and g.get("data-on") == on:
            return "".join("".join(t.itertext()) for t in g.iter(f"{SVG}text"))
    return ""


def all_text(root: ET.Element) -> str:
    return " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


@pytest.fixture
def three() -> Sheet:
    """Anna closes her pool 2.6.10; Boris whists on Vera's failed seven."""
    return game(
        ["Anna", "Boris", "Vera"],
        [
            passed("Anna", "6S", ["Boris", "Vera"]),
            passed("Anna", "7S", ["Boris", "Vera"]),
            passed("Anna", "7H", ["Boris", "Vera"]),
            {
                "type": "contract",
                "declarer": "Vera",
                "contract": "7D",
                "answers": {"Anna": "pass", "Boris": "whist"},
                "tricks": {"Vera": 6},
            },
        ],
    )


def test_pool_is_written_as_a_running_sum(three: Sheet) -> None:
    root = parse(pulka_svg(three))
    assert chain_text(sector(root, "Anna"), "pulka-pool-sum") == "2.6.10 ✓"


def test_whists_are_written_on_the_side_of_the_opponent(three: Sheet) -> None:
    root = parse(pulka_svg(three))
    boris = sector(root, "Boris")
    assert sums(three, "Boris", "whists", "Vera") == "4.20"
    assert chain_text(boris, "pulka-whists-on", on="Vera") == "4.20"
    assert chain_text(boris, "pulka-whists-on", on="Anna") == ""


def test_hill_running_sum(three: Sheet) -> None:
    root = parse(pulka_svg(three))
    assert chain_text(sector(root, "Vera"), "pulka-hill-sum") == "4"


def test_closed_pool_is_marked(three: Sheet) -> None:
    root = parse(pulka_svg(three))
    anna_pool = sector(root, "Anna").find("svg:polygon[@class='pulka-band pulka-pool closed']", NS)
    assert anna_pool is not None
    boris_classes = [p.get("class") for p in sector(root, "Boris").iter(f"{SVG}polygon")]
    assert "pulka-band pulka-pool" in boris_classes
    assert not any("closed" in (c or "") for c in boris_classes)


def test_pool_target_in_the_centre(three: Sheet) -> None:
    root = parse(pulka_svg(three))
    (target,) = [t for t in root.iter(f"{SVG}text") if t.get("class") == "pulka-target"]
    assert target.text == "10"


def test_names_and_totals_present(three: Sheet) -> None:
    root = parse(pulka_svg(three))
    names = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "pulka-name"}
    assert names == {"Anna", "Boris", "Vera"}
    totals = [t.text for t in root.iter(f"{SVG}tspan") if t.get("class") == "pulka-total"]
    for player in three.players:
        assert amount(three.pool(player)) in totals or three.pool(player) == 0
        assert amount(three.hill(player)) in totals or three.hill(player) == 0


def test_accessible_title_and_description(three: Sheet) -> None:
    root = parse(pulka_svg(three, title="Friday at Boris's"))
    assert root.get("role") == "img"
    title = root.find("svg:title", NS)
    desc = root.find("svg:desc", NS)
    assert title is not None and desc is not None
    assert title.text == "Friday at Boris's"
    assert root.get("aria-labelledby") == title.get("id")
    assert root.get("aria-describedby") == desc.get("id")
    assert desc.text is not None
    assert "Anna: pool 10 (closed), hill 0, whists on Boris: 0, on Vera: 4." in desc.text
    assert "Boris: pool 0, hill 0, whists on Anna: 0, on Vera: 20." in desc.text


def test_scales_with_a_viewbox_and_themable_classes(three: Sheet) -> None:
    root = parse(pulka_svg(three, css_class="pulka big"))
    assert root.get("viewBox") == "0 0 520 420"
    assert root.get("width") is None and root.get("height") is None
    assert root.get("class") == "pulka big"
    assert "DejaVu Sans" in (root.get("font-family") or "")


@pytest.mark.parametrize(
    "players",
    [
        ["Anna", "Boris"],
        ["Anna", "Boris", "Vera"],
        ["Anna", "Boris", "Vera", "Galina"],
        ["Anna", "Boris", "Vera", "Galina", "Dasha"],
    ],
)
def test_one_sector_per_player(players: list[str]) -> None:
    root = parse(pulka_svg(game(players, [])))
    sectors = [g for g in root.iter(f"{SVG}g") if g.get("class") == "pulka-sector"]
    assert [g.get("data-player") for g in sectors] == players
    for g in sectors:
        bands = [p.get("class") for p in g.iter(f"{SVG}polygon")]
        hill = [] if len(players) == 2 else ["pulka-band pulka-hill"]  # Hussar: no hill (§9)
        assert bands == [
            "pulka-band pulka-whists",
            "pulka-band pulka-pool",
            *hill,
            "pulka-band pulka-name",
        ]


def test_four_players_write_whists_on_three_opponents() -> None:
    sheet = game(
        ["Anna", "Boris", "Vera", "Galina"],
        [
            {
                "type": "contract",
                "declarer": "Vera",
                "contract": "6S",
                "answers": {"Galina": "whist", "Boris": "pass"},
                "tricks": {"Vera": 4},
            }
        ],
    )
    root = parse(pulka_svg(sheet))
    # Anna dealt: she writes consolation on Vera too.
    assert chain_text(sector(root, "Anna"), "pulka-whists-on", on="Vera") == "4"
    assert chain_text(sector(root, "Galina"), "pulka-whists-on", on="Vera") == "4.16"
    assert chain_text(sector(root, "Boris"), "pulka-whists-on", on="Vera") == "4"


def test_five_players_write_whists_on_four_opponents_in_five_sectors() -> None:
    five = ["Anna", "Boris", "Vera", "Galina", "Dasha"]
    sheet = game(
        five,
        [
            {
                "type": "contract",
                "declarer": "Vera",
                "contract": "7S",
                "answers": {"Galina": "whist", "Dasha": "pass"},
                "tricks": {"Vera": 5, "Galina": 3, "Dasha": 2},
            },
            {"type": "penalty", "player": "Galina", "contract": "6S"},
        ],
        first_dealer="Anna",
    )
    root = parse(pulka_svg(sheet))
    # Anna dealt and Boris deals next: both sit out and write consolation on Vera.
    for name in ("Anna", "Boris", "Dasha"):
        assert chain_text(sector(root, name), "pulka-whists-on", on="Vera") == "8"
    assert chain_text(sector(root, "Galina"), "pulka-whists-on", on="Vera") == "8.28"
    assert chain_text(sector(root, "Vera"), "pulka-whists-on", on="Galina") == "2"
    assert chain_text(sector(root, "Galina"), "pulka-hill-sum") == "2"
    for layout in LAYOUTS[5]:  # every sector has a whist area for each of the four others
        offsets = [o for _, side in layout.whists for o in side]
        assert sorted(offsets) == [1, 2, 3, 4]
    # The five sectors meet only at the centre: their name bands do not overlap.
    centres = []
    for name in five:
        (band,) = [
            p for p in sector(root, name).iter(f"{SVG}polygon") if "pulka-name" in p.get("class")
        ]
        points = [tuple(map(float, xy.split(","))) for xy in band.get("points").split()]
        centres.append(
            (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))
        )
    assert len({(round(x), round(y)) for x, y in centres}) == 5


def test_hussar_whists_on_the_one_opponent() -> None:
    sheet = game(
        ["Anna", "Boris"],
        [
            {
                "type": "contract",
                "declarer": "Anna",
                "contract": "6S",
                "answers": {"Boris": "whist"},
                "tricks": {"Anna": 6},
            },
            passed("Boris", "7H", ["Anna"]),
        ],
    )
    root = parse(pulka_svg(sheet))
    assert chain_text(sector(root, "Anna"), "pulka-pool-sum") == "2"
    assert chain_text(sector(root, "Boris"), "pulka-pool-sum") == "4"
    assert chain_text(sector(root, "Boris"), "pulka-whists-on", on="Anna") == sums(
        sheet, "Boris", "whists", "Anna"
    )


HOSTILE = [
    "<script>alert('x')</script>",
    'Anna "the" O\'Brien & <b>co</b> 😀🎉🇺🇦',
    "שלום עליכם מר כהן הגדול reversed",  # bidi overrides are refused at entry now
]


def test_hostile_names_are_escaped() -> None:
    sheet = game(HOSTILE, [passed(HOSTILE[0], "6S", HOSTILE[1:])])
    svg = pulka_svg(sheet, title="</title><script>alert(1)</script>")
    root = parse(svg)
    assert not [e for e in root.iter() if e.tag.endswith("script") or e.tag.endswith("}b")]
    assert "<script>" not in svg
    assert [g.get("data-player") for g in root.iter(f"{SVG}g") if g.get("data-player")] == HOSTILE
    desc = root.find("svg:desc", NS)
    assert desc is not None and desc.text is not None
    for name in HOSTILE:
        assert name in desc.text


def test_long_names_are_shortened_visibly() -> None:
    long = ["A" * 40, "Б" * 40, "Vera"]
    root = parse(pulka_svg(game(long, [])))
    names = [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "pulka-name"]
    assert names[2] == "Vera"
    assert all(n.endswith("…") and len(n) < 40 for n in names[:2])


def long_game(deals: int, seed: int = 7) -> Sheet:
    """Many passed contracts and failed contracts with one whister, never closing the pool."""
    players = ["Anna", "Boris", "Vera"]
    rnd = random.Random(seed)
    log: list[dict[str, Any]] = []
    for n in range(deals):
        declarer = players[rnd.randrange(3)]
        first, second = (players[(players.index(declarer) + i) % 3] for i in (1, 2))
        if n % 2:
            log.append(passed(declarer, "6NT", [first, second]))
        else:
            log.append(
                {
                    "type": "contract",
                    "declarer": declarer,
                    "contract": "7C",
                    "answers": {first: "whist", second: "pass"},
                    "tricks": {declarer: rnd.choice([5, 6, 7, 8])},
                }
            )
    return game(players, log, options={"pool_target": 5000})


def test_long_game_keeps_the_final_total_and_cuts_the_front() -> None:
    sheet = long_game(300)
    root = parse(pulka_svg(sheet))
    for player in sheet.players:
        group = sector(root, player)
        pool = chain_text(group, "pulka-pool-sum")
        assert pool.startswith("…")
        assert pool.endswith("." + amount(sheet.pool(player)))
        lines = [
            t
            for g in group.iter(f"{SVG}g")
            if "pulka-pool-sum" in (g.get("class") or "")
            for t in g.iter(f"{SVG}text")
        ]
        assert 1 <= len(lines) <= 2
        assert all(float(t.get("font-size", "0")) >= 11 for t in lines)


def test_empty_game_draws_bands_without_numbers() -> None:
    root = parse(pulka_svg(game(["Anna", "Boris", "Vera"], [])))
    assert not [t for t in root.iter(f"{SVG}text") if t.get("class") == "pulka-sum"]
    assert "0" not in all_text(root).replace("10", "")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_drawing_after_each_deal_is_the_drawing_made_from_nothing(players: int) -> None:
    """Sectors and chain layouts are kept between drawings (a deal redraws only what it
    wrote in): every drawing is still exactly the one made with nothing kept."""
    from scorekeeper.render import pulka
    from scorekeeper.rules import replay
    from scorekeeper.sample import random_game

    full = load(random_game(random.Random(players), 60, convention="sochi", players=players))
    sheet, _ = replay(full.with_deals(()))
    for number, deal in enumerate(full.deals):
        sheet, problems = sheet.plus(deal)
        assert problems == []
        if number % 6:
            continue
        drawn = pulka_svg(sheet)
        pulka.forget_drawn()
        assert pulka_svg(sheet) == drawn
