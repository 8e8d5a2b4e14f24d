from django.apps import AppConfig


class HealthConfig(AppConfig):
    name = "calculator.plumbing.health"
    label = "health"
    verbose_name = "Health check"
    default_auto_field = "django.db.models.BigAutoField"
