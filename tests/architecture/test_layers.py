"""docs/architecture.md's claims about the web layer, checked on the code: no store write is
reachable from scorekeeper/web/ (the services own every write).

What "a store write" is, concretely: a public method of the store's classes (`Store` and its
siblings, `Companies`, `Tournaments`, `Confirmations`, `Clubs`, `WrongPasswords`) that opens
a write transaction or runs a statement through the engine (`writing`, `_writing`, `_write`,
`batch`, `execute`, `executemany`, `insert`, `update`), itself or through another of its
class's methods that does. The web layer reaches one if a module under web/ calls such a
method on a store object it holds (`get_store()`, a sibling built on it, a helper of web/
that returns one, or a name bound to any of these), touches a store's `engine` (the
driver), or imports the store's write machinery (`store.schema`, `store.copy`,
`store.restore`, `store.passwords`)."""

from __future__ import annotations

import ast
from pathlib import Path

from ..harness import ROOT

PACKAGE = ROOT / "scorekeeper"
STORE_CLASSES = ("Store", "Companies", "Tournaments", "Confirmations", "Clubs", "WrongPasswords")
WRITING = {"writing", "_writing", "_write", "batch", "execute", "executemany", "insert", "update"}
MACHINERY = ("schema", "copy", "restore", "passwords")


def _calls(node: ast.AST) -> set[str]:
    """The attribute names called in a function's body (x.name(...))."""
    return {
        call.func.attr
        for call in ast.walk(node)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
    }


def store_writes() -> set[str]:
    """The public write methods of the store's classes (see the module's docstring)."""
    methods: dict[str, set[str]] = {}
    for path in (PACKAGE / "store").glob("*.py"):
        for cls in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(cls, ast.ClassDef) and cls.name in STORE_CLASSES:
                for fn in cls.body:
                    if isinstance(fn, ast.FunctionDef):
                        methods[f"{cls.name}.{fn.name}"] = _calls(fn)
    writing = {name for name, calls in methods.items() if calls & WRITING}
    while True:  # a method that calls one of its class's writing methods writes too
        more = {
            name
            for name, calls in methods.items()
            if {f"{name.split('.')[0]}.{c}" for c in calls} & writing
        }
        if more <= writing:
            break
        writing |= more
    return {name.split(".")[1] for name in writing if not name.split(".")[1].startswith("_")}


def _helpers(tree: ast.Module) -> set[str]:
    """The module's functions that hand back a store object (by their return annotation)."""
    return {
        fn.name
        for fn in tree.body
        if isinstance(fn, ast.FunctionDef)
        and fn.returns is not None
        and ast.unparse(fn.returns) in STORE_CLASSES
    }


def _holds_store(node: ast.expr, makers: set[str], bound: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in bound
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in makers


def _bound(fn: ast.AST, makers: set[str]) -> set[str]:
    """The names a function binds to a store object (x = get_store(), with Store() as x)."""
    names: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and _holds_store(node.value, makers, set()):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
            if _holds_store(node.context_expr, makers, set()):
                names.add(node.optional_vars.id)
    return names


def web_store_writes() -> list[str]:
    """Every place under web/ that reaches a store write, as `path:line what`."""
    writes = store_writes()
    found = []
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        makers = {"get_store", *STORE_CLASSES, *_helpers(tree)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                tuple(f"scorekeeper.store.{m}" for m in MACHINERY)
            ):
                found.append(f"{where}:{node.lineno} imports {node.module}")
            if isinstance(node, ast.Attribute) and node.attr == "engine":
                found.append(f"{where}:{node.lineno} {ast.unparse(node)}")
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            bound = _bound(fn, makers)
            for call in ast.walk(fn):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr in writes
                    and _holds_store(call.func.value, makers, bound)
                ):
                    found.append(f"{where}:{call.lineno} {ast.unparse(call.func)}")
    return sorted(set(found))


def test_the_store_s_write_methods_are_found() -> None:
    writes = store_writes()
    # A few that surely write, and a few that surely only read.
    assert {"add_deal", "delete_game", "purge_deleted", "add_payment", "add"} <= writes
    assert not {"get_game", "get", "of_game", "recent", "now"} & writes


def test_the_check_finds_a_store_write_in_a_view(tmp_path: Path) -> None:
    view = (
        "def purge():\n    get_store().purge_deleted()\n"
        "def pay(token):\n    book = companies()\n    book.add_payment(token)\n"
        "def companies() -> Companies:\n    return Companies(get_store())\n"
    )
    tree = ast.parse(view)
    makers = {"get_store", *STORE_CLASSES, *_helpers(tree)}
    functions = [fn for fn in tree.body if isinstance(fn, ast.FunctionDef)]
    writes = store_writes()
    reached = [
        ast.unparse(call.func)
        for fn in functions
        for call in ast.walk(fn)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in writes
        and _holds_store(call.func.value, makers, _bound(fn, makers))
    ]
    assert reached == ["get_store().purge_deleted", "book.add_payment"]


def test_no_store_write_is_reachable_from_the_web_layer() -> None:
    assert web_store_writes() == []


# -- one service write per view ---------------------------------------------------------------

SERVICES = (
    "games/writes.py",
    "company/writes.py",
    "club/writes.py",
    "tournament/service.py",
    "confirmations.py",
    "lockout.py",
    "games/purging.py",
)
"""The services' modules whose functions write (docs/architecture.md: services own writes)."""


def service_writes(path: Path, writes: set[str]) -> set[str]:
    """The public functions of a service module that reach a store write (see above),
    themselves or through another function of the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = {fn.name: fn for fn in tree.body if isinstance(fn, ast.FunctionDef)}
    calls = {
        name: _calls(fn)
        | {
            c.func.id
            for c in ast.walk(fn)
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
        }
        for name, fn in functions.items()
    }
    writing = {name for name, called in calls.items() if called & writes}
    while more := {name for name, called in calls.items() if called & writing} - writing:
        writing |= more
    return {name for name in writing if not name.startswith("_")}


def views_writing_twice() -> list[str]:
    """Each view (a function under web/ with a route) that calls two or more different
    write functions of the services, as `path: view [functions]`."""
    writes = store_writes()
    by_module = {
        "scorekeeper." + s.removesuffix(".py").replace("/", "."): service_writes(
            PACKAGE / s, writes
        )
        for s in SERVICES
    }
    found = []
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        local = {}  # the name a service module is imported under -> its write functions
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in by_module:
                        local[alias.asname or alias.name] = by_module[full]
        for fn in tree.body:
            if isinstance(fn, ast.FunctionDef) and any(
                "route" in ast.unparse(d) for d in fn.decorator_list
            ):
                called = {
                    f"{c.func.value.id}.{c.func.attr}"
                    for c in ast.walk(fn)
                    if isinstance(c, ast.Call)
                    and isinstance(c.func, ast.Attribute)
                    and isinstance(c.func.value, ast.Name)
                    and c.func.attr in local.get(c.func.value.id, set())
                }
                if len(called) > 1:
                    found.append(
                        f"{path.relative_to(PACKAGE).as_posix()}: {fn.name} {sorted(called)}"
                    )
    return found


def test_the_services_write_functions_are_found() -> None:
    writes = store_writes()
    games = service_writes(PACKAGE / "games/writes.py", writes)
    assert {"add_deal", "delete_game", "new_game"} <= games
    assert "check_deletable" not in games
    company = service_writes(PACKAGE / "company/writes.py", writes)
    assert {"pay", "add_payment", "start_evening_at"} <= company
    assert not {"draw_evening", "payment_problems", "evening_of"} & company


def test_a_view_calls_one_service_write() -> None:
    assert views_writing_twice() == []
