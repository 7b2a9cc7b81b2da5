from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """What an operator watches: the metrics endpoint, its series and their collectors."""

    name = "operations"

    def ready(self) -> None:
        from operations import task_metrics

        task_metrics.connect()
