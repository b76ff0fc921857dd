"""docs/TRAINING.md's "Configuration keys" names every field of each trainer's configuration
dataclass, with its default as YAML: a field added, renamed or given another default without the
doc fails here."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
import yaml

pytest.importorskip("sb3_contrib")

from train.config import TrainConfig  # noqa: E402
from train.selfplay import SelfPlayConfig  # noqa: E402
from train.table_selfplay import RoleSettings, TableSelfPlayConfig  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "TRAINING.md"
ROW = re.compile(r"^\| `([a-z_]+)` \| `([^`]*)` \| (.+) \|$")


def documented(cls: type) -> dict[str, str]:
    """The rows of the table under the heading that names ``cls`` (its module and name)."""
    text = DOC.read_text()
    name = f"`{cls.__module__}.{cls.__name__}`"
    headings = [m for m in re.finditer(r"^### .*$", text, re.M) if name in m.group(0)]
    assert len(headings) == 1, f"one heading of TRAINING.md names {name}"
    section = text[headings[0].end():].split("\n### ", 1)[0].split("\n## ", 1)[0]
    rows = [ROW.match(line) for line in section.splitlines() if line.startswith("| `")]
    assert all(rows), [line for line in section.splitlines() if line.startswith("| `")
                       and not ROW.match(line)]
    return {m.group(1): m.group(2) for m in rows}


@pytest.mark.parametrize("cls", [TrainConfig, TableSelfPlayConfig, RoleSettings, SelfPlayConfig],
                         ids=lambda c: c.__name__)
def test_every_key_is_documented_with_its_default(cls):
    rows = documented(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    assert sorted(rows) == sorted(fields), "TRAINING.md's keys differ from the dataclass fields"
    for name, field in fields.items():
        default = field.default if field.default is not dataclasses.MISSING else field.default_factory()
        assert yaml.safe_load(rows[name]) == default, f"{cls.__name__}.{name}: documented {rows[name]!r}"
