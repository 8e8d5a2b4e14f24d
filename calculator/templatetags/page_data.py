"""`{{ value|page_data:"calc-text" }}`: data for a page's script, as Django's `json_script` writes it, in UTF-8.

`json_script` escapes every character outside ASCII: a Chinese word (番价) goes out as \\u756a\\u4ef7, six bytes a
character instead of three, and the calculator page's data is mostly Chinese words. What keeps the element safe
is json_script's own escaping of <, > and &, which stays.
"""

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import json_script

register = template.Library()


class UnicodeJSONEncoder(DjangoJSONEncoder):
    """Django's encoder with every character as it is (json.dumps passes ensure_ascii to it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **{**kwargs, "ensure_ascii": False})


@register.filter(is_safe=True)
def page_data(value: object, element_id: str) -> str:
    return json_script(value, element_id, encoder=UnicodeJSONEncoder)
