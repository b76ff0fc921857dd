"""Every ```python block of README.md and docs/*.md runs as written: each one is executed in a fresh
namespace (from a scratch working directory), and a block that raises fails its test.

Conventions, the only ways a block may differ from what runs here:

- **Fragments.** A block whose fence is directly preceded by the line ``<!-- fragment: WHY -->``
  does not run on its own: ``COMPLETIONS`` (keyed by the doc and the block's first line) holds the
  code run before it. A marker without a completion, or a completion without a marker, fails.
- **Budgets.** ``BUDGETS`` replaces a block's training budget by a small one, each replaced text
  found exactly once in exactly one block, so that the fast run stays fast; the block as written runs
  under ``-m slow`` (``test_budgeted_blocks_run_as_written``).
- **Run elsewhere.** ``ELSEWHERE`` names docs whose blocks another test runs (docs/ECOSYSTEM.md's
  need its shell blocks and a checkout-like folder, tests/test_docs_ecosystem.py); here they are only
  checked to be the blocks that test runs.

Shell blocks (```bash, ```text and indented commands) are not run here.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", *sorted(f"docs/{path.name}" for path in (ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
MARKER = re.compile(r"<!-- fragment: .+ -->")

COMPLETIONS: dict[tuple[str, str], str] = {}
"""(doc, first line of the fragment) -> the code that runs before it."""

BUDGETS: dict[tuple[str, str], str] = {
    # learn(50_000) is four rollouts of 256 tables x 64 steps, each 10 epochs of 4 batches of 4,096
    # (about 60 s on 2 cores); one rollout of 256 x 4 steps in one batch makes the same calls in seconds
    ("README.md", "n_steps=64, batch_size=4096).learn(50_000)"): "n_steps=4, batch_size=1024).learn(1)",
}
"""(doc, text in one of its blocks) -> the smaller budget the fast run puts in its place."""

ELSEWHERE = {"docs/ECOSYSTEM.md": "tests/test_docs_ecosystem.py"}


class Block(NamedTuple):
    doc: str
    line: int
    code: str
    fragment: bool

    @property
    def name(self) -> str:
        return f"{self.doc}:{self.line}"


def python_blocks(doc: str) -> list[Block]:
    text = (ROOT / doc).read_text()
    blocks = []
    for match in FENCE.finditer(text):
        line_before = text[:match.start()].rstrip("\n").rpartition("\n")[2]
        blocks.append(Block(doc, text.count("\n", 0, match.start()) + 1, match.group(1),
                            bool(MARKER.fullmatch(line_before.strip()))))
    return blocks


BLOCKS = [block for doc in DOCS if doc not in ELSEWHERE for block in python_blocks(doc)]


def completion(block: Block) -> str:
    return COMPLETIONS.get((block.doc, block.code.partition("\n")[0]), "")


def budgeted(block: Block) -> str:
    code = block.code
    for (doc, text), smaller in BUDGETS.items():
        if doc == block.doc and text in code:
            code = code.replace(text, smaller)
    return code


def run(block: Block, code: str) -> None:
    exec(compile(completion(block) + code, block.name, "exec"), {"__name__": "__main__"})


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_block_runs(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run(block, budgeted(block))


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in BLOCKS if budgeted(b) != b.code],
                         ids=[b.name for b in BLOCKS if budgeted(b) != b.code])
def test_budgeted_blocks_run_as_written(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run(block, block.code)


def test_every_fragment_is_marked_and_completed():
    fragments = {(block.doc, block.code.partition("\n")[0]) for block in BLOCKS if block.fragment}
    assert fragments == set(COMPLETIONS)


def test_every_budget_replaces_text_of_exactly_one_block():
    for (doc, text) in BUDGETS:
        found = sum(block.code.count(text) for block in BLOCKS if block.doc == doc)
        assert found == 1, f"{doc}: {text!r} is in {found} places of its blocks"


@pytest.mark.parametrize("doc", sorted(ELSEWHERE))
def test_docs_run_elsewhere_are_run_there_block_for_block(doc):
    spec = importlib.util.spec_from_file_location("docs_elsewhere", ROOT / ELSEWHERE[doc])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.PAGE == ROOT / doc
    theirs = [code for language, code in module.blocks() if language == "python"]
    assert theirs == [block.code for block in python_blocks(doc)] and theirs
    assert not any(block.fragment for block in python_blocks(doc))
