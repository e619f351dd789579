"""mangacircus/pauses.py: the collector's settings and the background threads' priority."""
import gc
import os
import threading

import pytest

from mangacircus import pauses


@pytest.fixture
def fresh_collector():
    state = dict(pauses._state)
    yield
    gc.unfreeze()
    pauses._state.update(state)


def test_settle_freezes_nothing_until_the_server_enabled_it(fresh_collector):
    pauses._state.update(enabled=False, settled=False)
    pauses.settle()
    assert gc.get_freeze_count() == 0
    pauses.enable()
    pauses.settle()
    assert gc.get_freeze_count() > 1000  # this process's modules, classes and functions
    gc.unfreeze()
    pauses.settle()  # once per process
    assert gc.get_freeze_count() == 0


def test_background_lowers_only_the_calling_thread(fresh_collector):
    seen = {}

    def work():
        pauses.background()
        seen["thread"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen["thread"] == min(mine + pauses.BACKGROUND_NICE, 19)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine
    assert os.getpriority(os.PRIO_PROCESS, 0) == mine


def test_building_collects_nothing_meanwhile_and_freezes_what_it_made_once_the_server_enabled_it(fresh_collector):
    pauses._state.update(enabled=False, settled=False)
    with pytest.raises(ValueError), pauses.building():
        assert not gc.isenabled()
        raise ValueError("a broken snapshot")
    assert gc.isenabled() and gc.get_freeze_count() == 0  # in tests nothing is frozen
    pauses.enable()
    with pauses.building():
        made = [[n] for n in range(5000)]
    assert gc.isenabled() and gc.get_freeze_count() > len(made)
