from django.db import models


class Heartbeat(models.Model):
    """The row `/healthz` writes, one per machine (calculator/plumbing/health): each check inserts a new one, with
    `headroom` bytes that must find room on the disk, and deletes the machine's older ones. `at` says when this
    machine last took a write."""

    host = models.CharField(max_length=255)
    at = models.DateTimeField()
    headroom = models.BinaryField()

    class Meta:
        indexes = [models.Index(fields=["host"], name="heartbeat_host_idx")]

    def __str__(self) -> str:
        return f"{self.host} at {self.at:%Y-%m-%d %H:%M:%S}"
