from django.apps import AppConfig


class MangaCircusConfig(AppConfig):
    name = "mangacircus"
    verbose_name = "MangaCircus"
