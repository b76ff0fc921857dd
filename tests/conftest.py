"""Session set-up shared by every test module."""

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
