"""`{% htmx_csrf_headers %}`: the CSRF token for every htmx request, as an attribute (no inline script).

On <body>: `<body {% htmx_csrf_headers %}>` renders `hx-headers="{&quot;X-CSRFToken&quot;: &quot;…&quot;}"`; htmx
inherits hx-headers, so every request it sends carries the token Django's CsrfViewMiddleware checks. The value is
plain JSON, which htmx reads without eval (allowEval is false in the htmx-config meta of base.html).
"""

import json

from django import template
from django.middleware.csrf import get_token
from django.utils.html import format_html

register = template.Library()


@register.simple_tag(takes_context=True)
def htmx_csrf_headers(context) -> str:
    request = context.get("request")
    if request is None:
        return ""
    return format_html('hx-headers="{}"', json.dumps({"X-CSRFToken": get_token(request)}))
