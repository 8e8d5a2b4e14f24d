"""A text in the product's two languages, written one way: English in the code, Chinese in a gettext catalogue.

`msg("at most 4 melds, got {count}", count=4)` is a message: its English (the msgid, as the pages' catalogues
write theirs) and the values it names. It is said in a language when an answer is written, `message("zh")`: the
Chinese comes from `locale/zh_Hans/LC_MESSAGES/answers.po` (compiled to answers.mo by `compilemessages`, which
scripts/serve and scripts/test run) through Python's own `gettext`, without Django, as the phone reads it from
the offline pack. A value that is itself a text (a message, a game's `Text`, a seat's name as a function of the
language) is said in the same language; a catalogue's Chinese may use values its English does not (the game's
Chinese title where the English names its id), and the other way round.

A catalogue that is missing, older than its .po, or without a message the code says is an error that names the
file (`MissingCatalogue`): an answer is never written in msgids.

`Text` is a game's text as its declarations.toml writes it (the game's data, both languages side by side).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

# The project's locale folder: beside the `calculator` package on the server, and in the offline pack's zip.
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
DOMAIN = "answers"  # the engine's and the ledger's texts: what the JSON answers say
SOURCE = "en"  # the language of the msgids
CATALOGUES = {"zh": "zh_Hans"}  # the engine's language → its catalogue's folder under LOCALE_DIR

Said = Callable[[str], str]  # a text as a function of the language ("zh" / "en")


class MissingCatalogue(RuntimeError):
    """A catalogue the engine needs is not there, is older than its .po, or lacks a message."""


@dataclass(frozen=True, slots=True)
class Text:
    """One text of a game's data in both languages: Chinese first (the default), English second."""

    zh: str
    en: str

    def __call__(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh

    def to_dict(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en}


class Msg:
    """A message: its English (the msgid, a `str.format` template), the values it names and, for an English text
    said in two ways in Chinese, its context (gettext's msgctxt); said in a language by calling it. Made where a
    message is decided, said where the answer is written."""

    __slots__ = ("context", "msgid", "values")

    def __init__(self, msgid: str, values: Mapping[str, object], context: str | None = None):
        self.msgid, self.values, self.context = msgid, values, context

    def __call__(self, lang: str) -> str:
        if lang == SOURCE:
            template = self.msgid
        elif self.context is None:
            template = catalogue(lang).gettext(self.msgid)
        else:
            template = catalogue(lang).pgettext(self.context, self.msgid)
        if not self.values:
            return template
        # a value that is itself a text is said in the message's language (a template need not use every value)
        return template.format_map(
            {name: value(lang) if callable(value) else value for name, value in self.values.items()}
        )

    def __repr__(self) -> str:
        return f"msg({self.msgid!r})"


def msg(msgid: str, /, **values: object) -> Msg:
    """The message `msgid` (English, with `{name}` for each value) with its values."""
    return Msg(msgid, values)


def pmsg(context: str, msgid: str, /, **values: object) -> Msg:
    """The message `msgid` in `context`: the same English said another way in Chinese (gettext's pgettext)."""
    return Msg(msgid, values, context)


class Joined:
    """Items said as one list: each said in the language, between them `separator` said in it too (a message:
    ", " is "、" in Chinese)."""

    __slots__ = ("items", "separator")

    def __init__(self, separator: Msg, items: Iterable[Said | str]):
        self.separator, self.items = separator, tuple(items)

    def __call__(self, lang: str) -> str:
        return self.separator(lang).join([said(item, lang) for item in self.items])


# The separators of a list, said in each language
AND = pmsg("between items of a list", ", ")  # 、
OR = pmsg("between choices", " or ")  # 或


def said(text: Said | str, lang: str) -> str:
    """A message, a game's text, or a plain string (the same in both languages, or already in the user's)."""
    return text if isinstance(text, str) else text(lang)


# ---------------------------------------------------------------------------------------------------------
# The catalogues: read once per language, at first use (data, like a ruleset's declarations)


class _Strict(gettext.NullTranslations):
    """What the catalogue falls back to for a message it lacks: an error naming the file, never the msgid."""

    def __init__(self, path: Path):
        super().__init__()
        self.path = path

    def gettext(self, message: str) -> str:
        raise MissingCatalogue(
            f"{self.path} has no translation of {message!r}: add it to {self.path.with_suffix('.po')} and run "
            "`manage.py compilemessages`"
        )

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(f"{message} (context {context!r})")


_CATALOGUES: dict[str, gettext.GNUTranslations] = {}


def catalogue(lang: str) -> gettext.GNUTranslations:
    """The compiled catalogue of `lang` (Chinese for any language but the source's: the product's default), read
    at first use and kept: one per language of CATALOGUES."""
    lang = lang if lang in CATALOGUES else "zh"
    found = _CATALOGUES.get(lang)
    if found is None:
        found = _CATALOGUES[lang] = read_catalogue(catalogue_path(lang))
    return found


def catalogue_path(lang: str) -> Path:
    return LOCALE_DIR / CATALOGUES[lang] / "LC_MESSAGES" / f"{DOMAIN}.mo"


def read_catalogue(path: Path) -> gettext.GNUTranslations:
    """A compiled catalogue, or `MissingCatalogue` naming it (missing, or older than its .po where that is
    present: the offline pack holds only the compiled one)."""
    source = path.with_suffix(".po")
    try:
        with path.open("rb") as compiled:
            translations = gettext.GNUTranslations(compiled)
    except OSError:
        raise MissingCatalogue(f"{path} is missing: run `manage.py compilemessages`") from None
    if source.exists() and source.stat().st_mtime > path.stat().st_mtime:
        raise MissingCatalogue(f"{path} is older than {source}: run `manage.py compilemessages`")
    translations.add_fallback(_Strict(path))
    return translations
