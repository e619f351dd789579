"""Hashed, compressed static files (collected by `serve`), with plain URLs for files that were not
collected yet, so development and in-process tests work without collectstatic."""
from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def url(self, name, force=False):
        try:
            return super().url(name, force)
        except ValueError:
            return FileSystemStorage.url(self, name)
