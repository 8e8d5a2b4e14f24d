from django.db import models


class Bucket(models.Model):
    """How many requests one client made in one scope during the current fixed window.

    One row per (scope, client): each hit inserts it or rewrites `window_end` and `count` in one statement (an
    upsert, `ratelimit.hit`), so every server process on every machine counts in the same row and two concurrent
    hits cannot both read the same old count.
    """

    key = models.CharField(max_length=200, unique=True)  # "<scope>:<client>"
    window_end = models.BigIntegerField()  # when the counted window ends, in seconds since the epoch
    count = models.IntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["window_end"], name="ratelimit_window_end_idx")]

    def __str__(self) -> str:
        return f"{self.key}: {self.count} until {self.window_end}"
