from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "clabber_league.core"
    label = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        from . import strict
        from .requestlog import connect_task_ids

        connect_task_ids()
        strict.install()  # JSON input of the wrong type is refused, field named
