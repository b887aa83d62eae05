"""The messages of the code not yet translated into Serbian and Croatian, and adding them.

    .venv/bin/python scripts/missing_translations.py            # list them, numbered
    .venv/bin/python scripts/missing_translations.py ru uk      # the same for other languages
    .venv/bin/python scripts/missing_translations.py --add FILE # put translations in

The list is extracted as tests/i18n/test_i18n_complete.py does (pybabel extract, into a temporary
folder: never onto the repository's files) and kept, numbered, in /tmp/missing_sr_hr.json.
FILE holds one line a message, by that number (list again only after adding: a message the
others add meanwhile renumbers the list) or by its English (a plural's singular):

    12 ‖ Serbian Latin ‖ Croatian
    Save ‖ Sačuvaj ‖ Spremi

with "=" as the Croatian when it is the same as the Serbian, and plural forms (one, few, many)
separated by " ¦ ". --add writes them into sr_Latn and hr (a message already translated is
left as it is), writes sr_Cyrl from sr_Latn (scripts/sr_cyrillic.py) and compiles the
catalogues. Only the Serbian and Croatian catalogues are written: ru and uk are appended to by
hand (docs/i18n.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
PYBABEL = Path(sys.executable).with_name("pybabel")
KEPT = Path(tempfile.gettempdir()) / "missing_sr_hr.json"
DEFAULT = ("sr_Latn", "hr")


def template() -> Catalog:
    """The messages of the code now (pybabel extract into a temporary folder)."""
    with tempfile.TemporaryDirectory() as folder:
        pot = Path(folder) / "messages.pot"
        subprocess.run(
            [str(PYBABEL), "extract", "-F", "babel.cfg", "-k", "N_", "-k", "_l"]
            + ["-k", "lazy_gettext", "-o", str(pot), "."],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        with pot.open("rb") as f:
            return read_po(f)


def catalogue(lang: str) -> Catalog:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def translated(po: Catalog, msgid: str | tuple[str, ...], context: str | None) -> bool:
    found = po.get(msgid, context=context)
    if found is None or found.fuzzy:
        return False
    strings = found.string if isinstance(found.string, tuple) else (found.string,)
    return all(strings)


def missing(langs: tuple[str, ...]) -> list[dict[str, object]]:
    """Messages some of the languages lack: id (a list for a plural), context, languages."""
    pot = template()
    pos = {lang: catalogue(lang) for lang in langs}
    out = []
    for message in pot:
        if not message.id:
            continue
        lacking = [
            lang for lang, po in pos.items() if not translated(po, message.id, message.context)
        ]
        if lacking:
            msgid = list(message.id) if isinstance(message.id, tuple) else message.id
            out.append({"id": msgid, "context": message.context, "langs": lacking})
    return out


def show(langs: tuple[str, ...]) -> int:
    found = missing(langs)
    KEPT.write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")
    for n, item in enumerate(found):
        context = f"[{item['context']}] " if item["context"] else ""
        plural = "PLURAL " if isinstance(item["id"], list) else ""
        print(
            f"{n}\t{context}{plural}{json.dumps(item['id'], ensure_ascii=False)}\t{item['langs']}"
        )
    print(f"{len(found)} missing; numbered list kept in {KEPT}", file=sys.stderr)
    return 1 if found else 0


def _message(key: str, listed: list[dict[str, object]], pot: Catalog) -> dict[str, object]:
    """A message by its number in the last listing, or by its English (a plural's singular)."""
    if key.isdigit():
        return listed[int(key)]
    for message in pot:
        singular = message.id if isinstance(message.id, str) else message.id[0]
        if message.id and singular == key:
            msgid = list(message.id) if isinstance(message.id, tuple) else message.id
            return {"id": msgid, "context": message.context}
    raise SystemExit(f"the code has no message {key!r}")


def add(path: Path) -> int:
    listed = json.loads(KEPT.read_text(encoding="utf-8")) if KEPT.is_file() else []
    pot = template()
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = []
    for line in lines:
        key, serbian, croatian = (part.strip(" ") for part in line.split(" ‖ "))
        texts = (serbian, serbian if croatian == "=" else croatian)
        rows.append((_message(key, listed, pot), texts))
    for lang, column in (("sr_Latn", 0), ("hr", 1)):
        po = catalogue(lang)
        for item, texts in rows:
            msgid = tuple(item["id"]) if isinstance(item["id"], list) else item["id"]
            if translated(po, msgid, item["context"]):
                continue
            text = texts[column].replace("\\n", "\n")
            string = tuple(text.split(" ¦ ")) if isinstance(msgid, tuple) else text
            if isinstance(string, tuple) and len(string) != 3:
                raise SystemExit(f"{msgid}: a plural needs three forms (one ¦ few ¦ many)")
            context = item["context"] if isinstance(item["context"], str) else None
            po.delete(msgid, context=context)
            po.add(msgid, string, context=context)
        with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("wb") as f:
            write_po(f, po, width=76)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "sr_cyrillic.py")], check=True)
    subprocess.run(
        [str(PYBABEL), "compile", "-d", str(TRANSLATIONS)], check=True, capture_output=True
    )
    print(f"added {len(rows)}; wrote sr_Cyrl and compiled the catalogues")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--add"] and len(argv) == 2:
        return add(Path(argv[1]))
    return show(tuple(argv) or DEFAULT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
