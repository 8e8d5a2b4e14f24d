"""`{% picture_base %}`: where the verdict's pictures are for this app version, `/picture/<version>/` (issue 32):
static/js/picture.js adds `<lang>.svg?<share query>`."""

from django import template
from django.urls import reverse

from calculator.plumbing.pictures import app_version

register = template.Library()


@register.simple_tag
def picture_base() -> str:
    return reverse("picture", kwargs={"version": app_version(), "lang": "zh", "kind": "svg"}).removesuffix("zh.svg")
