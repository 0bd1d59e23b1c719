from django.apps import AppConfig


class DemoConfig(AppConfig):
    """``manage.py seed_demo``: a demo club built through every app's services, so it is
    the top layer (docs/ARCHITECTURE.md)."""

    name = "clabber_league.demo"
    label = "demo"
    verbose_name = "Demo club"
