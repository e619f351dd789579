"""Hashed, compressed static files (collected by `serve`), with plain URLs for files that were not
collected yet, so development and in-process tests work without collectstatic.

A hashed URL is kept once found: the manifest is read when the storage is made and does not change
while the process runs, and finding one cost ~60 µs for each `{% static %}` of every page."""
from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._urls = {}

    def url(self, name, force=False):
        found = None if force else self._urls.get(name)
        if found is not None:
            return found
        try:
            found = super().url(name, force)
        except ValueError:
            return FileSystemStorage.url(self, name)
        if not force:
            self._urls[name] = found
        return found
