"""Wall-clock time as state files store it: whole milliseconds since the epoch."""
import time


def now_ms():
    return int(time.time() * 1000)
