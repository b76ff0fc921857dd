"""The kernel draws from a Generator through its bit generator's handle (``vector/bitgen.py``): the
same stream as ``Generator.random()``, interleaved with Python's own draws, and never a stale
address after a copy."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from numba import njit

from shoot_pontoon_env.vector.bitgen import GeneratorHandle, next_double


@njit
def draws(handle, n, out):
    for i in range(n):
        out[i] = next_double(handle[0], handle[1])


def test_compiled_draws_are_generator_random_and_share_its_state():
    ours, reference = np.random.default_rng(11), np.random.default_rng(11)
    handle, out = GeneratorHandle(), np.zeros(3)
    for _ in range(4):
        draws(handle(ours), 3, out)
        assert out.tolist() == reference.random(3).tolist()
        assert ours.random() == reference.random()  # Python's draws and the kernel's share one state


def test_a_handle_follows_the_generator_it_is_given():
    handle = GeneratorHandle()
    first, second = np.random.default_rng(1), np.random.default_rng(2)
    a = handle(first).copy()
    assert (handle(first) == a).all()
    assert not (handle(second) == a).all()


@pytest.mark.parametrize("duplicate", [copy.copy, copy.deepcopy, lambda h: pickle.loads(pickle.dumps(h))])
def test_a_copied_handle_forgets_its_addresses(duplicate):
    generator = np.random.default_rng(3)
    handle = GeneratorHandle()
    handle(generator)
    twin = duplicate(handle)
    other = copy.deepcopy(generator)
    assert not (twin(other) == handle(generator)).all()


def test_a_handle_refuses_what_is_not_a_generator():
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        GeneratorHandle()(np.random.RandomState(0))
