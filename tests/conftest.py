"""Session set-up shared by every test module."""

from pathlib import Path

import pytest

_config: pytest.Config | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Compile the batched engine's kernel once, in the main process before pytest-xdist starts its
    workers: they then load it from numba's on-disk cache instead of compiling it each."""
    global _config
    _config = config
    if not hasattr(config, "workerinput"):
        from shoot_pontoon_env.vector import kernel

        kernel.compile()


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Name each failure the moment it happens (with ``-q -n 2`` pytest prints only an ``F`` until the
    end): a run stopped early, by CI's limit or by hand, still says which test failed. Under
    pytest-xdist this runs in the controller, which receives every worker's reports."""
    reporter = _config.pluginmanager.get_plugin("terminalreporter") if _config else None
    if report.failed and reporter is not None:
        reporter.write("\n")
        line = f"FAILED {report.nodeid} ({report.when}, {report.duration:.1f} s)"
        reporter.write_line(line, red=True, bold=True)


SLOW_LIST = Path(__file__).with_name("slow.txt")


def slow_list() -> dict[str, str]:
    """tests/slow.txt: test id -> the line's note (its seconds, and the test that keeps its path in CI)."""
    listed = {}
    for line in SLOW_LIST.read_text().splitlines():
        test_id, _, note = line.partition("#")
        if test_id.strip():
            listed[test_id.strip()] = note.strip()
    return listed


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark `slow` every test that tests/slow.txt names. A listed id that is not collected while its
    function is (a case renamed or dropped) stops the run: the list never silently lets a test back
    into CI, nor keeps a stale line."""
    listed = slow_list()
    collected = {item.nodeid for item in items}
    functions = {item.nodeid.partition("[")[0] for item in items}
    stale = [test_id for test_id in listed
             if test_id not in collected and test_id.partition("[")[0] in functions]
    if stale:
        raise pytest.UsageError(f"tests/slow.txt names {stale[0]!r}, which is not a test "
                                f"({len(stale)} such line(s)); fix or remove the line")
    for item in items:
        if item.nodeid in listed:
            item.add_marker(pytest.mark.slow)
