"""`calculator.markup.fmt` escapes exactly as Django's `format_html`: the result partial's fragments depend on it."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy, override
from hypothesis import given
from hypothesis import strategies as st

from calculator.markup import esc, fmt

ARGUMENTS = st.one_of(
    st.text(),
    st.text(alphabet="<>&\"' abc中").map(mark_safe),  # markup is kept as written
    st.integers(),
    st.none(),
    st.sampled_from([gettext_lazy("Pair"), gettext_lazy("winning tile"), gettext_lazy("Remove this meld")]),
)


@given(st.lists(ARGUMENTS, min_size=1, max_size=6), st.sampled_from(["zh-hans", "en"]))
def test_fmt_gives_what_format_html_gives(args, language):
    template = "<p class={}>" + "|".join("{}" for _ in args[1:]) + "</p>"
    with override(language):
        ours, django = fmt(template, *args), format_html(template, *args)
    assert ours == django
    assert isinstance(ours, SafeString)


def test_esc_escapes_every_html_special_character():
    assert esc("<a href=\"x\">'Tom' & Jerry</a>") == "&lt;a href=&quot;x&quot;&gt;&#x27;Tom&#x27; &amp; Jerry&lt;/a&gt;"


def test_esc_keeps_markup_and_translates_lazy_text():
    assert esc(mark_safe("<b>8m</b>")) == "<b>8m</b>"
    with override("zh-hans"):
        assert esc(gettext_lazy("Pair")) == "将"
