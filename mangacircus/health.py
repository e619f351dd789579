"""What each part reports about itself, for GET /api/admin/health (ops/health.py puts it together).

mangacircus cannot import the apps above it, so each app registers a reporter from its
AppConfig.ready(): `health.register("library", fn)`, where fn() answers a JSON-able dict.
"""
import time

STARTED = time.time()
_reporters = {}


def register(name, report):
    _reporters[name] = report


def reporters():
    return dict(_reporters)
