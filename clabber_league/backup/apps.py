from django.apps import AppConfig


class BackupConfig(AppConfig):
    name = "clabber_league.backup"
    label = "backup"
    verbose_name = "Club backups"
