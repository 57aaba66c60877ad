"""No English written inline where the bot speaks to users: every string literal handed to
Discord (a reply, an edit, an embed's parts, a button's or a select's label, an autocomplete
choice, a refusal, a notice) in the modules that render to users comes from the catalogs
(``_``, ``_n``, ``_p``, ``N_``, ``later``), or is on the small allow-list below with why.

An AST scan, so a new ``Refusal("Something English")`` or ``label="Review"`` fails here before
a player of another language sees it.  Tournaments (``bot/events/``, ``cogs/tournament.py``,
``bot/ui/tournament/``) are kept by their own engineer and scanned once they are translated.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("bot/ui", "cogs", "bot/tables", "bot/league", "bot/review")
SKIPPED: tuple[str, ...] = ()
MARKS = {"_", "_n", "_p", "N_", "later", "Text", "Line"}
# Calls whose arguments a user reads (the function's or method's own name).
SINKS = {
    "send_message",
    "send",
    "edit_message",
    "edit",
    "edit_original_response",
    "reply",
    "answer",
    "notice",
    "Refusal",
    "SettingsError",
    "SeasonError",
    "Embed",
    "add_field",
    "set_footer",
    "set_author",
    "Button",
    "Select",
    "SelectOption",
    "Choice",
    "TextInput",
    "Modal",
    "review_button",
    "replay_button",
}
ERRORS = {"Refusal", "SettingsError", "SeasonError"}
CHOICES = {"Choice", "SelectOption"}  # their ``value`` is what the bot gets back, not shown
# Keyword arguments a user reads, whatever the call.
SHOWN = {"content", "label", "placeholder", "title", "description", "text"}
WORD = re.compile(r"[A-Za-z]{2,}")
SENTENCE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")  # two words: not a code, a key or a name
# (path, literal): what is shown as it is, and why.
ALLOWED = {
    # the values the host types and the bot stores (their words are shown by value_word)
    ("bot/tables/options.py", "hands after each hand"),
    # a line for the operator's log at shutdown, not for users
    ("bot/collector.py", "garbage collections: "),
}


def modules() -> Iterator[Path]:
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if not any(s in rel for s in SKIPPED):
                yield path
    for path in sorted((ROOT / "bot").glob("*.py")):
        yield path


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _literals(node: ast.AST) -> Iterator[ast.Constant]:
    """String constants in ``node`` that are not inside a catalog call."""
    if isinstance(node, ast.Call) and _name(node) in MARKS:
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
        return
    if isinstance(node, ast.Call):  # a helper's result: only what it is told to join with
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "join":
            yield from _literals(f.value)
        for arg in node.args:
            if isinstance(arg, ast.JoinedStr | ast.BinOp | ast.IfExp):
                yield from _literals(arg)
        return
    if isinstance(node, ast.Subscript | ast.Attribute | ast.Name | ast.Lambda):
        return
    for child in ast.iter_child_nodes(node):
        yield from _literals(child)


def _calls_in_functions(tree: ast.AST) -> Iterator[ast.Call]:
    """The calls in function bodies: what runs when a user is answered.  Command metadata
    (module- and class-level ``Group``/``Choice``, decorators) is left out: the Translator
    gives it in each language (``bot.i18n.commands``; tests/i18n/test_catalogs.py)."""
    seen: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for statement in fn.body:
                for node in ast.walk(statement):
                    if isinstance(node, ast.Call) and id(node) not in seen:
                        seen.add(id(node))
                        yield node


def english_shown(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in _calls_in_functions(tree):
        name = _name(node)
        if name in MARKS:
            continue
        shown: list[ast.AST] = [k.value for k in node.keywords if k.arg in SHOWN]
        if name in ERRORS:  # the reason; other arguments name the option
            shown += node.args[:1]
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Call) and _name(first) == "str":  # an exception's English
                found.append((node.lineno, ast.unparse(first)))
        elif name in SINKS:
            shown += node.args
            keys = ("name",) if name in CHOICES else ("name", "value", "reason")
            shown += [k.value for k in node.keywords if k.arg in keys]
        for arg in shown:
            for c in _literals(arg):
                if WORD.search(c.value):
                    found.append((c.lineno, c.value))
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        # a default for a shown argument (``label: str = "Review"``)
        args = fn.args.args + fn.args.kwonlyargs
        defaults = [*fn.args.defaults, *fn.args.kw_defaults]
        for arg, default in zip(reversed(args), reversed(defaults), strict=False):
            if arg.arg in SHOWN and default is not None:
                found += [(c.lineno, c.value) for c in _literals(default) if WORD.search(c.value)]
        # a sentence a function returns or picks from a table to return (the text it renders)
        for statement in fn.body:
            for node in ast.walk(statement):
                value = node.value if isinstance(node, ast.Return) else None
                if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Dict):
                    value = value.value
                if value is None:
                    continue
                for c in _literals(value):
                    if SENTENCE.search(c.value):
                        found.append((c.lineno, c.value))
    return sorted(set(found))


def test_every_text_shown_to_users_comes_from_the_catalogs() -> None:
    left = []
    for path in modules():
        rel = path.relative_to(ROOT).as_posix()
        for line, text in english_shown(path):
            if (rel, text) not in ALLOWED:
                left.append(f"{rel}:{line}: {text!r}")
    assert not left, "English written inline:\n" + "\n".join(left)


def test_the_scan_finds_english_in_a_reply_a_label_a_choice_and_a_refusal() -> None:
    """The scan itself: each way English was left in before is caught, and marked text is not."""
    source = """
async def f(interaction, table):
    await interaction.response.send_message("Welcome to the table")
    Button(label="Review", custom_id="spades:rv")
    Choice(name=f"{table.id} — no hints", value="off")
    raise Refusal("hints must be on or off.")
    e.set_footer(text=f"Table {table.id} · " + _("{n} hands", n=3))
    await interaction.response.send_message(_("Welcome"), ephemeral=True)
    Select(custom_id="spades:rv:g:1:jump", placeholder=_("Go to…"))
    Choice(name=_("off"), value="off")
    try:
        seat = Seat.parse(text)
    except ValueError as e:
        raise Refusal(str(e)) from None


def g(label: str = "Share", *, placeholder: str = _("Go to…")) -> str:
    if label:
        return "Not rated: a practice game."
    return {"off": "No spectators.", "public": _("Anyone may watch.")}[label]
"""
    path = ROOT / "tests" / "i18n" / "_scan_sample.py"
    try:
        path.write_text(source, encoding="utf-8")
        found = english_shown(path)
    finally:
        path.unlink(missing_ok=True)
    assert sorted(text for _, text in found) == [
        " — no hints",
        "No spectators.",
        "Not rated: a practice game.",
        "Review",
        "Share",
        "Table ",
        "Welcome to the table",
        "hints must be on or off.",
        "str(e)",
    ]
