from django.apps import AppConfig


class RateLimitConfig(AppConfig):
    name = "calculator.plumbing.ratelimit"
    label = "ratelimit"
    verbose_name = "Rate limits"
    default_auto_field = "django.db.models.BigAutoField"
