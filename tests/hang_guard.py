"""The one wall-clock limit the tests put on a subprocess: a guard against a hang, not a speed check.

Every command a test runs this way takes from a few seconds to about two minutes on a quiet 2-core
machine (the slowest, a training smoke run, about 60 s); an hour is far above that even on a machine
ten or twenty times slower, so a test's verdict never depends on the machine's load. Speed is
measured in benchmarks/, never asserted by a test.
"""

HANG_GUARD_S = 3600
