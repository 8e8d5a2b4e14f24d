"""A text in two languages is written one way (calculator/engine/text.py): English in the code, Chinese in the
`answers` catalogue, read with Python's gettext. Every message the code says is in the catalogue with the values it
names, the catalogue holds nothing the code does not say, and a missing catalogue is an error naming the file,
never an answer in msgids."""

from __future__ import annotations

import ast
import os
import shutil
import string
from pathlib import Path

import pytest

from calculator.engine import score, text
from calculator.engine.errors import ScoreError
from calculator.engine.text import AND, Joined, MissingCatalogue, Text, msg, pmsg

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "answers.po"
B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}


class Said:
    """One msg(...) / pmsg(...) call of the code: its context, msgid, the values it names (None: given as
    **values) and where it is."""

    def __init__(self, node: ast.Call, where: str):
        literal = [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
        self.context, self.msgid = (literal[0], literal[1]) if node.func.id == "pmsg" else (None, literal[0])
        named = [keyword.arg for keyword in node.keywords]
        self.values = None if None in named else set(named)
        self.where = f"{where}:{node.lineno}"

    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid


def said_in_code() -> list[Said]:
    """Every message the product's code says (calculator/), each a call with its English written out."""
    found = []
    for path in sorted((ROOT / "calculator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("msg", "pmsg"):
                wanted = 2 if node.func.id == "pmsg" else 1
                written = node.args[:wanted]
                assert len(written) == wanted and all(
                    isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in written
                ), f"{path}:{node.lineno}: a message's English is written out where it is said"
                found.append(Said(node, path.relative_to(ROOT).as_posix()))
    return found


def catalogue_entries(po: Path) -> dict[tuple[str | None, str], str]:
    """The catalogue's messages as {(context, msgid): msgstr}, the header left out. Entries are separated by blank
    lines; a string may go on over quoted lines."""
    entries = {}
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        keyword = None
        for line in block.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith('"'):
                fields[keyword] += ast.literal_eval(line)
            else:
                keyword, _, quoted = line.partition(" ")
                fields[keyword] = ast.literal_eval(quoted)
        if fields.get("msgid"):
            entries[fields.get("msgctxt"), fields["msgid"]] = fields["msgstr"]
    return entries


def names_in(template: str) -> set[str]:
    """The values a `str.format` template names ("{tile} ({name_en})" → tile, name_en)."""
    return {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(template) if field}


SAID = said_in_code()
ENTRIES = catalogue_entries(PO)


def test_every_message_the_code_says_has_its_chinese():
    missing = [f"{one.where}: {one.msgid!r}" for one in SAID if not ENTRIES.get(one.key())]
    assert not missing


def test_the_catalogue_holds_only_messages_the_code_says():
    said = {one.key() for one in SAID}
    assert not [key for key in ENTRIES if key not in said]


@pytest.mark.parametrize("one", [one for one in SAID if one.values is not None], ids=lambda one: one.where)
def test_a_message_names_exactly_the_values_its_two_languages_use(one):
    english, chinese = names_in(one.msgid), names_in(ENTRIES[one.key()])
    assert english <= one.values and chinese <= one.values
    assert one.values <= english | chinese  # a value neither language says is not passed


def test_the_compiled_catalogue_answers_every_message_of_the_code():
    """answers.mo is the .po compiled (`compilemessages`): each message the code says is in it."""
    translations = text.catalogue("zh")
    for one in SAID:
        if one.context is None:
            assert translations.gettext(one.msgid) == ENTRIES[one.key()]
        else:
            assert translations.pgettext(one.context, one.msgid) == ENTRIES[one.key()]


def test_a_message_is_its_english_with_its_values_and_its_chinese_from_the_catalogue():
    count = msg("at most 4 melds, got {count}", count=5)
    assert (count("en"), count("zh")) == ("at most 4 melds, got 5", "最多 4 组副露，收到 5 组")


def test_a_value_that_is_a_text_is_said_in_the_messages_language():
    flagged = msg("{flag}: {reason}", flag=Text("杠上开花", "kong replacement"), reason=msg("Pung"))
    assert (flagged("en"), flagged("zh")) == ("kong replacement: Pung", "杠上开花：碰")


def test_the_chinese_may_use_a_value_the_english_leaves_out():
    no_chow = msg("{game} has no chows", game="bazhi", title=Text("八支", "Bazhi"))
    assert (no_chow("en"), no_chow("zh")) == ("bazhi has no chows", "八支不准吃牌")


def test_a_list_is_joined_as_each_language_writes_it():
    listed = Joined(AND, [msg("Pung"), msg("Chow")])
    assert (listed("en"), listed("zh")) == ("Pung, Chow", "碰、吃")


def test_the_same_english_in_two_contexts_is_two_chinese_texts():
    games, choices = pmsg("between games to choose", " or "), pmsg("between choices", " or ")
    assert (games("zh"), choices("zh")) == ("，", " 或 ")


def test_an_error_keeps_its_code_and_says_its_message_in_each_language():
    error = ScoreError("bad_meld", msg("meld {number} must be an object", number=2), "melds[1]")
    english = {"code": "bad_meld", "message": "meld 2 must be an object", "field": "melds[1]"}
    assert error.to_dict("en") == {"error": english}
    assert error.to_dict("zh")["error"]["message"] == "第 2 组副露格式不对"
    assert str(error) == "bad_meld: meld 2 must be an object"


# ------------------------------------------------------------------------------------ a catalogue that is not there


@pytest.fixture
def locale_dir(tmp_path, monkeypatch):
    """The engine reading its catalogues from an empty folder, none read yet."""
    monkeypatch.setattr(text, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(text, "_CATALOGUES", {})
    return tmp_path


def test_a_missing_catalogue_is_an_error_naming_the_file_not_an_answer_in_english(locale_dir):
    compiled = locale_dir / "zh_Hans" / "LC_MESSAGES" / "answers.mo"
    with pytest.raises(MissingCatalogue, match=f"{compiled} is missing"):
        score(B1, "zh")
    with pytest.raises(MissingCatalogue, match=f"{compiled} is missing"):
        score({**B1, "melds": "pung"}, "zh")  # an error answer too


def test_english_is_the_source_language_and_needs_no_catalogue(locale_dir):
    assert score(B1, "en")["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}  # case B1


def test_a_catalogue_without_a_message_the_code_says_is_an_error_naming_both(locale_dir):
    folder = locale_dir / "zh_Hans" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(PO.with_suffix(".mo"), folder / "answers.mo")
    assert msg("Pung")("zh") == "碰"
    with pytest.raises(MissingCatalogue, match=r"answers\.mo has no translation of 'a message nobody translated'"):
        msg("a message nobody translated")("zh")


def test_a_catalogue_older_than_its_po_is_an_error_naming_it(locale_dir):
    folder = locale_dir / "zh_Hans" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    compiled = shutil.copy(PO.with_suffix(".mo"), folder / "answers.mo")
    source = folder / "answers.po"
    source.write_text(PO.read_text(encoding="utf-8"), encoding="utf-8")
    stamp = Path(compiled).stat().st_mtime
    os.utime(source, (stamp + 10, stamp + 10))
    with pytest.raises(MissingCatalogue, match="is older than"):
        msg("Pung")("zh")
