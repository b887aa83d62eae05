"""The documentation in the repository: complete for every option, and linking only inside."""

from __future__ import annotations

import dataclasses
import re

from scorekeeper.rules.options import Options

from ..harness import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_link_of_the_readme_and_docs_stays_in_the_repository() -> None:
    for doc in DOCS:
        text = doc.read_text()
        for target in re.findall(r"\]\(([^)]+)\)", text):
            assert not target.startswith(("http:", "https:", "/", "..")), (doc.name, target)
            path = (doc.parent / target.split("#")[0]).resolve()
            assert path.exists(), (doc.name, target)
            assert ROOT in path.parents, (doc.name, target)
        assert "../shared" not in text, doc.name


def test_every_option_of_the_engine_is_explained_in_the_rules_and_the_preset_table() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text()
    table = rules[rules.index("## §7") : rules.index("## §8")]
    body = rules.replace(table, "")
    for field in dataclasses.fields(Options):
        assert f"`{field.name}`" in table, field.name  # its presets
        assert re.search(rf"\b{field.name}\b", body), field.name  # and what it does


def test_the_code_cites_the_documents_that_are_in_the_repository() -> None:
    for path in [*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]:
        if path.name == "test_docs.py":
            continue
        for cited in re.findall(r"(?<![\w/.-])([\w-]+\.md)\b", path.read_text()):
            if cited in ("rules.md", "game-format.md"):
                raise AssertionError(f"{path.relative_to(ROOT)} cites {cited}, not docs/{cited}")
        for cited in re.findall(r"docs/([\w-]+\.md)", path.read_text()):
            assert (ROOT / "docs" / cited).is_file(), (path, cited)
