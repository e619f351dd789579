from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class LibraryConfig(AppConfig):
    name = "library"

    def ready(self):
        from mangacircus import backups, events, health

        from . import ids, service, thumbs

        health.register("library", service.health)
        events.scan_finished.connect(thumbs.on_scan)
        backups.register_snapshot(ids.FILE, ids.STATE.snapshot)

    def check_runtime(self):
        from . import ids

        ids.STATE.check()

    def start_runtime(self):
        from . import ids, links, service, thumbs

        if links.enabled():
            links.secret()  # DATA/link-secret.nginx exists before the proxy is (re)loaded
        ids.STATE.open()
        thumbs.start()
        service.start()

    def stop_runtime(self):
        from . import ids, service, thumbs

        service.stop()
        thumbs.stop()
        ids.STATE.close()


@checks.register("mangacircus")
def library_readable(app_configs, **kwargs):
    """A warning only: a LIBRARY that is missing at start (an unmounted drive) is reported by each
    scan, and the reader keeps serving the last index it had, marked unavailable."""
    from . import libraries
    from .faults import problem

    root = settings.LIBRARY
    if root is None:
        return [checks.Warning("LIBRARY is not set: the library is empty", id="library.W001")]
    if settings.LIBRARY_IS_DEMO and not root.exists():
        return []  # the demo library, which the command that needs it writes (library/demo.py)
    found = []
    for library in libraries.all():
        why = problem(library.root)
        if why:
            named = f"{library.name}: {why}" if libraries.several() else why
            found.append(checks.Warning(f"{named} The reader starts with its last index and tells admins until it "
                                        "can be read.", id="library.W002"))
    return found
