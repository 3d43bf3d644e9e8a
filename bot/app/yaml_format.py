"""YAML files in and out: read with line numbers, check plain data, write readable files.

Reading uses PyYAML's *safe* loader only (no Python objects, no tags beyond YAML's plain ones),
composed node by node so that every value keeps the line it was written on: a problem is told as
``line 12: …``. Dates are not turned into date objects (``2024-05-01`` stays text), so whatever
is read can be kept as JSON. Anchors and aliases work, but the expanded data is bounded, so a
small file cannot expand into a huge one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from bot.app.replies import Refusal

#: The largest file taken (bytes), and the most figures one import may hold.
MAX_FILE_BYTES = 256 * 1024
MAX_FIGURES = 500
#: Bounds on the data a file expands to (aliases may repeat a node many times) and its nesting.
MAX_NODES = 100_000
MAX_DEPTH = 40
#: How many problems one answer lists before it says "and N more" (the card is cut to fit anyway).
PROBLEMS_SHOWN = 60

Path = tuple[Any, ...]

_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_UNKEEPABLE = re.compile("[\x00\ud800-\udfff]")


#: libyaml's parser and emitter where PyYAML has them (five times faster: a 200 KiB roster reads in
#: a quarter of a second), else the pure-Python ones. Both are the *safe* kinds.
_SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SAFE_DUMPER: type = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Loader(_SAFE_LOADER):
    """The safe loader, without turning dates into date objects."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _Dumper(_SAFE_DUMPER):
    """The safe dumper; :class:`Flow` mappings are written on one line."""


class Flow(dict[str, Any]):
    """A small mapping written in flow style: ``{speed: 6, bravery: 4}``."""


_BREAKS = re.compile("[\x85\u2028\u2029]")


def _text(dumper: Any, data: str) -> Any:
    """Text with a line-break character YAML would fold is written double-quoted, escaped."""
    style = '"' if _BREAKS.search(data) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _text)
_Dumper.add_representer(
    Flow, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)
)


class FileProblems(Refusal):
    """Everything wrong with a file, each problem already saying its line."""

    def __init__(self, problems: Sequence[str], what: str = "The file") -> None:
        self.problems = list(problems)
        self.what = what
        super().__init__(
            f"{what} has {plural(len(self.problems), 'problem')}: {self.problems[0] if self.problems else ''}"
        )


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {many or word + 's'}"


_LINE = re.compile(r"^line (\d+): ")


def by_line(problems: Sequence[str]) -> list[str]:
    """Problems in the order of the file's lines; those about the file as a whole last."""

    def key(problem: str) -> int:
        match = _LINE.match(problem)
        return int(match[1]) if match else 1 << 30

    return sorted(problems, key=key)


class FileRefused(Refusal):
    """A file refused for its problems: every one at once, in the order of the file's lines, cut to
    Discord's limits with a count of what is left out."""

    advice = "Fix them all and send the file again."

    def __init__(self, exc: FileProblems, filename: str, nothing: str = "nothing was changed") -> None:
        listed = by_line(exc.problems)[:PROBLEMS_SHOWN]
        lines = [f"{plural(len(exc.problems), 'problem')} in {filename}; {nothing}:"] + [f"• {p}" for p in listed]
        if len(exc.problems) > len(listed):
            lines.append(f"… and {len(exc.problems) - len(listed)} more")
        super().__init__("\n".join(lines))
        self.problems = exc.problems


# --- reading ----------------------------------------------------------------------------------


@dataclass
class Doc:
    """A YAML document as plain data, with the line of every key and value (1-based)."""

    data: Any
    lines: dict[Path, int] = field(default_factory=dict)
    raw: dict[Path, str] = field(default_factory=dict)

    def line(self, *path: Any) -> int | None:
        """The line of ``path``, or of the nearest enclosing value that has one."""
        p: Path = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get(())

    def at(self, path: Path, text: str) -> str:
        """``text`` prefixed with the line of ``path``."""
        line = self.line(*path)
        return f"line {line}: {text}" if line is not None else text

    def text(self, *path: Any) -> str | None:
        """A scalar as the file wrote it (``007`` stays ``007``, ``yes`` stays ``yes``); None if absent or null."""
        value = self.get(*path)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and tuple(path) in self.raw:
            return self.raw[tuple(path)]
        return None

    def get(self, *path: Any) -> Any:
        value = self.data
        for key in path:
            if (isinstance(value, Mapping) and key in value) or (
                isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value)
            ):
                value = value[key]
            else:
                return None
        return value

    def sub(self, path: Path) -> Doc:
        """The part of the document under ``path``, as a document of its own (same line numbers)."""
        n = len(path)
        return Doc(
            self.get(*path),
            {p[n:]: line for p, line in self.lines.items() if p[:n] == path},
            {p[n:]: text for p, text in self.raw.items() if p[:n] == path},
        )

    def path_lines(self) -> dict[str, int]:
        """Each path written as :func:`rules.core.from_data` writes it (``weapons.rifle.long``,
        ``wound_chart[2]``), with its line: to place the problems the rules find."""
        out: dict[str, int] = {}
        for path, line in self.lines.items():
            text, value = "", self.data
            for key in path:
                if isinstance(value, list):
                    text = f"{text}[{key}]"
                elif text:
                    text = f"{text}.{key}"
                else:
                    text = str(key)
                value = value[key] if isinstance(value, (list, Mapping)) else None
            out.setdefault(text, line)
        return out


def decode(data: bytes) -> str:
    """The file's text (UTF-8, a byte-order mark allowed), or a refusal."""
    if len(data) > MAX_FILE_BYTES:
        raise Refusal(f"The file is {len(data) // 1024} KiB; the most taken is {MAX_FILE_BYTES // 1024} KiB.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refusal("The file is not UTF-8 text: attach the YAML file itself.") from None


def read(data: bytes) -> Doc:
    """The YAML document in ``data``, with lines; every problem raised at once as FileProblems."""
    text = decode(data)
    loader = _Loader(text)
    problems: list[str] = []
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = f"line {mark.line + 1}: " if mark is not None else ""
            problem = exc.problem or exc.context or "not valid YAML"
            if "another document" in problem:
                problem = "a second YAML document starts here (---): a file holds one"
            raise FileProblems([f"{where}{problem}"]) from None
        except yaml.YAMLError as exc:
            raise FileProblems([f"not valid YAML ({short_error(exc)})"]) from None
        except RecursionError:
            raise FileProblems(["the file nests too deeply"]) from None
        if node is None:
            raise FileProblems(["the file is empty"])
        doc = Doc(None)
        walker = _Walker(loader, doc, problems)
        try:
            doc.data = walker.walk(node, ())
        except _TooBig as exc:
            raise FileProblems([str(exc)]) from None
        except RecursionError:
            raise FileProblems(["the file nests too deeply"]) from None
    finally:
        loader.dispose()
    if problems:
        raise FileProblems(problems)
    return doc


def short_error(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:120]


class _TooBig(Exception):
    pass


class _Walker:
    def __init__(self, loader: _Loader, doc: Doc, problems: list[str]) -> None:
        self.loader = loader
        self.doc = doc
        self.problems = problems
        self.nodes = 0

    def walk(self, node: Node, path: Path, depth: int = 0) -> Any:
        self.nodes += 1
        line = node.start_mark.line + 1
        if self.nodes > MAX_NODES:
            raise _TooBig(f"line {line}: the file expands to too much data (aliases repeat it); write it out plainly")
        if depth > MAX_DEPTH:
            raise _TooBig(f"line {line}: nested more than {MAX_DEPTH} levels deep")
        self.doc.lines.setdefault(path, line)
        if isinstance(node, ScalarNode):
            return self._scalar(node, path, line)
        if isinstance(node, SequenceNode):
            if node.tag not in ("tag:yaml.org,2002:seq",):
                self.problems.append(f"line {line}: {node.tag} is not taken here: write a plain list")
                return None
            return [self.walk(child, (*path, i), depth + 1) for i, child in enumerate(node.value)]
        if isinstance(node, MappingNode):
            if node.tag not in ("tag:yaml.org,2002:map",):
                self.problems.append(f"line {line}: {node.tag} is not taken here: write a plain mapping")
                return None
            try:
                self.loader.flatten_mapping(node)
            except yaml.MarkedYAMLError as exc:
                self.problems.append(f"line {line}: {exc.problem}")
                return None
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key_line = key_node.start_mark.line + 1
                if not isinstance(key_node, ScalarNode):
                    self.problems.append(
                        f"line {key_line}: a key must be a plain word or number, not a list or mapping"
                    )
                    continue
                key = self._scalar(key_node, None, key_line)
                if key is None or isinstance(key, float):
                    self.problems.append(f"line {key_line}: {key_node.value!r} cannot be a key")
                    continue
                if key in out:
                    self.problems.append(f"line {key_line}: {key!r} is given twice")
                    continue
                self.doc.lines[(*path, key)] = key_line
                out[key] = self.walk(value_node, (*path, key), depth + 1)
            return out
        self.problems.append(f"line {line}: unexpected YAML")  # pragma: no cover - PyYAML has no other nodes
        return None

    def _scalar(self, node: ScalarNode, path: Path | None, line: int) -> Any:
        try:
            value = self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            self.problems.append(f"line {line}: {getattr(exc, 'problem', None) or short_error(exc)}")
            return None
        if isinstance(value, float) and not math.isfinite(value):
            self.problems.append(f"line {line}: {node.value} is not a number this bot keeps; write a finite number")
            return None
        if value is not None and not isinstance(value, (str, int, float, bool)):
            self.problems.append(f"line {line}: {node.tag} values are not taken here; write plain text or numbers")
            return None
        if isinstance(value, str) and _UNKEEPABLE.search(value):
            self.problems.append(
                f"line {line}: the text holds a character that cannot be kept (NUL or a lone surrogate)"
            )
            return None
        if path is not None and isinstance(value, (int, float)):  # bool too: keep "yes" as written
            self.doc.raw[path] = node.value
        return value


# --- checking plain values ----------------------------------------------------------------------


def check_plain(doc: Doc, path: Path, value: Any, problems: list[str], *, what: str) -> None:
    """``value`` must be JSON-shaped: mappings with text keys, lists, text, numbers, yes/no, null."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                problems.append(doc.at((*path, key), f"{what}: the key {key!r} must be text (quote it)"))
                continue
            check_plain(doc, (*path, key), item, problems, what=what)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_plain(doc, (*path, i), item, problems, what=what)


def unknown_keys(
    doc: Doc, path: Path, value: Mapping[Any, Any], known: Iterable[str], problems: list[str], what: str
) -> None:
    allowed = list(known)
    for key in value:
        if key not in allowed:
            problems.append(doc.at((*path, key), f"{what} has no key {key!r} (it takes {', '.join(allowed)})"))


_PATH_HEAD = re.compile(r"^(?P<path>[^:]+?): (?P<rest>.*)$", re.DOTALL)
_UNKNOWN_KEY = re.compile(r"^unknown key (?P<key>'.*'|\".*\")$")


def place_data_problems(doc: Doc, problems: Iterable[str], outside: str) -> list[str]:
    """Problems found by :func:`rules.core.from_data` (``weapons.rifle.long: …``) with the line of the
    file where that path is written; a path the file does not write is marked as ``outside``
    (the ruleset's own tables, with the house rules laid over them)."""
    lines = doc.path_lines()
    placed = []
    for problem in problems:
        match = _PATH_HEAD.match(problem)
        if not match:
            placed.append(problem)
            continue
        path, rest = match["path"], match["rest"]
        probe = "" if path == "the top level" else path
        unknown = _UNKNOWN_KEY.match(rest)
        if unknown:
            probe = f"{probe}.{unknown['key'][1:-1]}" if probe else unknown["key"][1:-1]
            full = probe
        line = None
        while True:
            if probe in lines:
                line = lines[probe]
                break
            cut = max(probe.rfind("."), probe.rfind("["))
            if cut <= 0:
                break
            probe = probe[:cut]
        if unknown:
            problem = (
                f"{short_path(full)} is not a key of the ruleset's tables (/campaign rules show tables:True lists them)"
            )
        placed.append(f"line {line}: {problem}" if line is not None else f"{problem} ({outside})")
    return placed


def short_path(path: str) -> str:
    return path if len(path) <= 80 else path[:79] + "…"


# --- writing ----------------------------------------------------------------------------------


def dump(data: Any, header: Sequence[str] = ()) -> bytes:
    """``data`` as YAML text with comment lines on top (each header line one comment)."""
    body = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)
    comments = "".join(f"# {' '.join(line.split())}\n" for line in header)
    return (comments + body).encode("utf-8")


def file_slug(text: str, limit: int = 40) -> str:
    """A piece of a file name: lower case letters, digits and dashes."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")[:limit].strip("-")
    return slug or "campaign"
