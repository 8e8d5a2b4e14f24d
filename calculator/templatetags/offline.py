"""`{% offline_offer %}`: the offer of the offline pack (issue 22) on the calculator and the trainer, when a pack
is built (templates/offline_offer.html; calculator/offline/served.py)."""

from django import template

from calculator.offline import served

register = template.Library()


@register.inclusion_tag("offline_offer.html")
def offline_offer() -> dict:
    offer = served.offer(served.manifest())
    return {"offer": offer, "words": served.words() if offer else None}
