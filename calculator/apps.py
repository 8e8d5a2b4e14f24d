from django.apps import AppConfig
from django.db.backends.signals import connection_created


class CalculatorConfig(AppConfig):
    name = "calculator"
    verbose_name = "Mahjong calculator"

    def ready(self) -> None:
        from calculator.plumbing.sqlite import use_wal

        connection_created.connect(use_wal, dispatch_uid="calculator.sqlite.use_wal")
