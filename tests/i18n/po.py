"""A small reader of gettext catalogs for the catalog tests (no third-party parser)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str = ""
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def untranslated(self) -> bool:
        return not self.msgstr or any(not text for text in self.msgstr.values())


KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")


def read(path: Path) -> list[Entry]:
    """The entries of a ``.po`` file, the header included (``msgid ""``), obsolete ones left out."""
    entries: list[Entry] = []
    entry: Entry | None = None
    target: tuple[str, int] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            entry, target = None, None
            continue
        if line.startswith("#~"):
            continue
        if entry is None:
            entry = Entry(line=number)
            entries.append(entry)
        if line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        match = KEYWORD.match(line)
        if match:
            keyword, index, text = match.groups()
            value = ast.literal_eval(text)
            if keyword.startswith("msgstr"):
                target = ("msgstr", int(index or 0))
                entry.msgstr[target[1]] = value
            else:
                target = (keyword, 0)
                setattr(entry, keyword, value)
        elif line.startswith('"') and target is not None:
            value = ast.literal_eval(line)
            if target[0] == "msgstr":
                entry.msgstr[target[1]] += value
            else:
                setattr(entry, target[0], getattr(entry, target[0]) + value)
    return entries


PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sd]|\{\w*\}|</?[a-zA-Z][\w-]*|&[a-zA-Z]+;")


def placeholders(text: str) -> list[str]:
    """The placeholders, HTML tags and entities of a message, sorted (their order may change)."""
    return sorted(PLACEHOLDER.findall(text))
