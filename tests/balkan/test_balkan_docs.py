"""The repository's own Balkan documents: every option of the engine is in the preset table
with its value in each preset, and the game-format example is the one the tests score."""

from __future__ import annotations

import dataclasses
import json
import re

from scorekeeper.balkan import PRESETS, BalkanOptions

from ..harness import ROOT
from .helpers import PETAK
from .test_balkan_cli import EXPECTED

BALKAN = (ROOT / "docs" / "balkan.md").read_text()
FORMAT = (ROOT / "docs/game-format.md").read_text()


def test_every_option_is_in_the_preset_table_with_its_values() -> None:
    table = BALKAN[BALKAN.index("## Options and presets") :]
    for field in dataclasses.fields(BalkanOptions):
        row = next((line for line in table.splitlines() if f"`{field.name}`" in line), None)
        assert row is not None, field.name
        if field.name in ("stake", "currency", "money_unit"):
            continue
        cells = [c.strip() for c in row.split("|")[2:5]]
        for cell, preset in zip(cells, ("club", "iklub", "savez"), strict=True):
            value = getattr(PRESETS[preset], field.name)
            shown = "true" if value is True else "false" if value is False else str(value)
            assert cell == shown, (field.name, preset, cell, shown)


def test_the_documented_file_and_output_are_the_tested_ones() -> None:
    section = FORMAT[FORMAT.index("## Balkan games") :]
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    assert json.loads(blocks[0]) == json.loads(PETAK.read_text())
    assert json.loads(blocks[1]) == EXPECTED
