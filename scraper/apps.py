from django.apps import AppConfig


class ScraperConfig(AppConfig):
    name = "scraper"
