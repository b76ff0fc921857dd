"""Session set-up shared by every test module."""


def pytest_configure(config):
    """Compile the batched engine's kernel once, in the main process before pytest-xdist starts its
    workers: they then load it from numba's on-disk cache instead of compiling it each."""
    if not hasattr(config, "workerinput"):
        from shoot_pontoon_env.vector import kernel

        kernel.compile()
