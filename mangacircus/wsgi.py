import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mangacircus.settings")
from mangacircus import chunked  # noqa: E402

application = chunked.whole_bodies(get_wsgi_application())

from mangacircus import pauses, runtime  # noqa: E402  (needs the configured apps)

pauses.enable()
runtime.start()
