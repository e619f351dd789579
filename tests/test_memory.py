"""mangacircus/memory.py: freed heap pages go back to the system when asked (glibc's malloc_trim)."""
from mangacircus import memory


def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS"))


def test_the_holes_a_big_short_lived_allocation_leaves_are_given_back():
    """Pairs of 8 KB buffers, the first of each pair dropped: holes between live ones, as a decoded
    snapshot's objects leave between the index's. glibc keeps them until malloc_trim."""
    pairs = [(bytes(8192), bytes(8192)) for _ in range(10_000)]
    kept = [second for _, second in pairs]
    del pairs
    before = rss_mb()
    assert memory.give_back() is True
    assert before - rss_mb() > 25  # of the 80 MB of holes, the pages wholly inside them
    assert len(kept) == 10_000
