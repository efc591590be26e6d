"""The project's shape: one installed name, dependencies pointing one way, no import cycle.

The module graph is read from the source with ``ast`` (every ``import`` statement,
including those inside functions; imports under ``if TYPE_CHECKING:`` are not run and
are left out). Layers, lowest first:
core <- games (rules <- env <- compiled engine <- spec) <- agents <- arena <- training,
bridges <- web <- cli.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGE_DIRS: dict[str, str] = PYPROJECT["tool"]["setuptools"]["package-dir"]
TOP = "art_gallery_env"

# Lower numbers may not import higher ones. A game's modules (art_gallery_env.games.<game>.*)
# are placed by their part of the game (GAME_PART_LAYERS), whichever game it is.
LAYERS = {
    f"{TOP}.core": 0,  # game-free: protocol, errors, fields, registry, loop (pure Python)
    f"{TOP}.core.aec": 1,  # the AEC base (pettingzoo) and the single-agent env (gymnasium)
    f"{TOP}.core.single_agent": 1,
    f"{TOP}.files": 0,
    f"{TOP}.compat": 0,  # the old module paths' aliases (imports nothing of the project)
    TOP: 1,  # the package's __init__ re-exports Art Gallery's env and engine (lazily)
    f"{TOP}.games": 3,  # a game's package and its registration: above its env and bots
    f"{TOP}.art_gallery_v1": 3,  # the versioned PettingZoo entry modules
    f"{TOP}.gallerist_v1": 3,
    f"{TOP}.agents": 3,
    f"{TOP}.arena": 4,
    f"{TOP}.training": 5,
    f"{TOP}.web": 6,
    f"{TOP}.bridges": 5,  # other frameworks' APIs (OpenSpiel): above the agents they wrap
    f"{TOP}.cli": 7,
}
# Inside a game folder: rules <- env <- compiled engine <- bots and spec.
GAME_PART_LAYERS = {
    "rules": 0,
    "env": 1,
    "vector": 2,  # the compiled batched engine: rules' twin, observes like env
    # the heuristic's valuation and clock (on the rules only): the compiled engine plays it
    "heuristic": 2,
    "heuristic_v1": 2,
    "clock": 2,
    "agents": 3,
}


def source_root(package: str) -> Path:
    """Where a package's files are (package-dir maps some to top-level folders)."""
    for name, folder in PACKAGE_DIRS.items():
        if package == name or package.startswith(name + "."):
            return ROOT / folder / Path(*package[len(name) :].split(".")[1:])
    return ROOT / Path(*package.split("."))


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PYPROJECT["tool"]["setuptools"]["packages"]:
        folder = source_root(package)
        for path in folder.glob("*.py"):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            modules[name] = path
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_names(module: str, path: Path) -> set[str]:
    """Every project module ``module`` imports at run time (absolute names)."""
    is_package = path.stem == "__init__"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node)
        for child in node.body
        for n in ast.walk(child)
    }
    names = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")
                base = parts if is_package else parts[:-1]
                base = base[: len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            names.add(prefix)
            names.update(f"{prefix}.{alias.name}" for alias in node.names)
    return {name for name in names if name == TOP or name.startswith(TOP + ".")}


def graph() -> dict[str, set[str]]:
    modules = project_modules()
    edges = {}
    for name, path in modules.items():
        # A module's own parent packages are imported before it in any case (``from .
        # import x`` names the parent too): such edges are not dependencies.
        targets = {
            t
            for t in imported_names(name, path)
            if t in modules and t != name and not name.startswith(t + ".")
        }
        edges[name] = targets
    return edges


def layer(module: str) -> int:
    parts = module.split(".")
    if parts[:2] == [TOP, "games"] and len(parts) > 3:
        return GAME_PART_LAYERS.get(parts[3], LAYERS[f"{TOP}.games"])
    best = max(
        (prefix for prefix in LAYERS if module == prefix or module.startswith(prefix + ".")),
        key=len,
    )
    return LAYERS[best]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_package_folder_is_listed_for_installation() -> None:
    """A folder with an __init__.py that pyproject does not list would be left out of
    the wheel (it works in the editable install, then breaks for users)."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    for package in list(listed):
        folder = source_root(package)
        for init in folder.glob("*/__init__.py"):
            sub = f"{package}.{init.parent.name}"
            assert sub in listed, f"{init.parent} is a package but not in pyproject's packages"


def test_no_import_cycle_between_modules() -> None:
    assert cycles(graph()) == []


def test_dependencies_point_one_way() -> None:
    wrong = [
        f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})"
        for a, targets in graph().items()
        for b in targets
        if layer(b) > layer(a)
    ]
    assert wrong == []


def test_the_graph_is_read_correctly() -> None:
    """The checks above would pass on an empty graph: make sure known edges are seen."""
    edges = graph()
    assert f"{TOP}.games.art_gallery.rules.game" in edges[f"{TOP}.games.art_gallery.rules.state"]
    assert f"{TOP}.arena.single_agent" in edges[f"{TOP}.training.selfplay"]
    assert f"{TOP}.core.single_agent" in edges[f"{TOP}.arena.single_agent"]
    assert f"{TOP}.core.loop" in edges[f"{TOP}.core.single_agent"]
    assert len(edges) > 40


# The core and the tools never import a game's modules: they reach a game through the
# registry (core.registry.get_game) and its spec's callables and extensions, so that a new
# game plugs in by registering and no tool is edited for it.
GAME_FREE = ("core", "agents", "arena", "training", "web", "bridges", "cli", "compat")


def game_of(module: str) -> str | None:
    """``art_gallery_env.games.<game>...`` -> ``<game>``; None for the game-free modules."""
    parts = module.split(".")
    return parts[2] if parts[:2] == [TOP, "games"] and len(parts) > 2 else None


def test_the_core_and_the_tools_import_no_game_module() -> None:
    def part(module: str) -> str:
        return module.split(".")[1] if module.count(".") else ""

    wrong = [
        f"{a} imports {b}"
        for a, targets in graph().items()
        if part(a) in GAME_FREE
        for b in targets
        if game_of(b)
    ]
    assert wrong == []
    assert part(f"{TOP}.web.views") in GAME_FREE  # the check reads module names as meant


def test_no_game_imports_another_game() -> None:
    wrong = [
        f"{a} imports {b}"
        for a, targets in graph().items()
        for b in targets
        if game_of(a) and game_of(b) and game_of(a) != game_of(b)
    ]
    assert wrong == []


def test_the_package_root_holds_only_game_free_modules() -> None:
    """Every game lives under games/: the root's folders are the core and the tools."""
    root = ROOT / TOP
    folders = {p.parent.name for p in root.glob("*/__init__.py")}
    assert folders == {"core", "games", "bridges", "cli"}, folders
    assert {game_of(m) for m in graph() if game_of(m)} >= {"art_gallery", "gallerist"}


# The command line is a tool too: its help text and option names name no game and no
# game's variant (a game's name comes from the registry at run time: --game NAME,
# --variant KEY=VALUE). A deprecated hidden alias is listed in the CLI's options module.
def _every_parser(parser):
    import argparse

    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _every_parser(sub)


def _game_words() -> set[str]:
    """Every registered game's name and title and every variant's name, as they could be
    written in help text (``zero_is_ten``) and as option names (``--zero-is-ten``)."""
    import sealed_bids.spec  # noqa: F401 - the test game registers: its words count too

    from art_gallery_env.core.registry import game_names, get_game

    words = set()
    for name in game_names():
        spec = get_game(name)
        words |= {name, spec.title.removeprefix("The ")}
        words |= set(spec.variants) | {v.replace("_", "-") for v in spec.variants}
    return words


def _cli_texts() -> tuple[list[str], list[str]]:
    """(every help text and description, every visible option name) of the CLI."""
    import argparse

    from art_gallery_env.cli import build_parser

    texts, names = [], []
    for parser in _every_parser(build_parser()):
        texts += [parser.description or "", parser.epilog or "", parser.format_usage()]
        for action in parser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            texts.append(str(action.help or ""))
            names += list(action.option_strings)
            names += [str(c) for c in getattr(action, "choices", None) or ()]
    return texts, names


def test_the_command_line_names_no_game_and_no_variant() -> None:
    words = _game_words()
    texts, names = _cli_texts()
    assert {"art_gallery", "zero_is_ten", "zero-is-ten", "sealed_bids", "Gallerist"} <= words
    wrong = sorted(
        {f"{word!r} in {text[:60]!r}" for text in texts for word in words if word in text}
        | {f"option {n}" for n in names for w in words if w in n}
    )
    assert wrong == []
    assert "--variant" in names and "--game" in names  # the check reads the real parser


def test_the_hidden_aliases_are_the_listed_deprecated_ones() -> None:
    import argparse

    from art_gallery_env.cli import build_parser
    from art_gallery_env.cli.options import DEPRECATED_VARIANT_FLAGS

    hidden = {
        option
        for parser in _every_parser(build_parser())
        for action in parser._actions
        if action.help == argparse.SUPPRESS
        for option in action.option_strings
    }
    assert hidden == set(DEPRECATED_VARIANT_FLAGS)
