import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mangacircus.settings")
application = get_wsgi_application()

from mangacircus import runtime  # noqa: E402  (needs the configured apps)

runtime.start()
