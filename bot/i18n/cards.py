"""The card table's vocabulary in each language, and reading what players type in it.

Display: seat, suit and card names, bids and calls come from the catalogs (each language's
own card words: *picas*, *nulo*, *atout*, *Bube*).  Input: :func:`parse_card` and
:func:`bid_words` understand the current language (and every shipped one: a French player on
an English server types French) on top of the engine's English forms, which
:mod:`bot.engine.cards` keeps parsing unchanged.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, TypeVar

from bot.engine import BLIND_NIL, NIL, Card, Seat, Team, card
from bot.engine.actions import Call
from bot.engine.cards import BIG_JOKER, LITTLE_JOKER, RANK_NAMES, SUITS
from bot.engine.cards import parse_card as parse_en
from bot.engine.errors import CardParseError
from bot.i18n.core import LANGUAGES, N_, _, _p, current, use

SEAT_WORDS: Final = {"N": N_("North"), "E": N_("East"), "S": N_("South"), "W": N_("West")}
TEAM_WORDS: Final = (N_("North–South"), N_("East–West"))
SUIT_WORDS: Final = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
RANK_WORDS: Final = {11: N_("jack"), 12: N_("queen"), 13: N_("king"), 14: N_("ace")}
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_V = TypeVar("_V")


def _card_suit(suit: str) -> str:
    """The suit as it is said in a card's name (French: *dame de cœur*, singular)."""
    return {
        "S": _p("card name", "spades"),
        "H": _p("card name", "hearts"),
        "D": _p("card name", "diamonds"),
        "C": _p("card name", "clubs"),
    }[suit]


def seat_word(seat: Seat) -> str:
    """``North`` / ``Norte`` / ``Nord``."""
    return _seat_words(current())[seat]


@functools.cache
def _seat_words(language: str) -> tuple[str, ...]:
    """The seats' words in ``language``, by seat (a hand message names some ten seats)."""
    with use(language):
        return tuple(_(SEAT_WORDS[s.name]) for s in Seat)


def team_word(team: Team) -> str:
    """``North–South`` / ``Norte–Sur``."""
    return _(TEAM_WORDS[team])


def suit_name(suit: str) -> str:
    """``spades`` / ``picas`` / ``piques`` / ``Pik``."""
    return _(SUIT_WORDS[suit])


def rank_word(rank: int) -> str:
    return _(RANK_WORDS[rank]) if rank in RANK_WORDS else str(rank)


def card_name(c: Card) -> str:
    """The card in words: ``queen of hearts``, ``reina de corazones``, ``Herz Dame``."""
    if c.index == BIG_JOKER:
        return _("big joker")
    if c.index == LITTLE_JOKER:
        return _("little joker")
    assert c.suit is not None
    return _("{rank} of {suit}", rank=rank_word(c.rank), suit=_card_suit(c.suit))


def bid_word(value: int, blind: bool = False) -> str:
    """A bid as players say it: ``nil`` → ``nulo``, ``blind 6`` → ``6 a ciegas``."""
    if value == NIL:
        return _("nil")
    if value == BLIND_NIL:
        return _("blind nil")
    return _("blind {bid}", bid=value) if blind else str(value)


def call_word(call: str, alone: bool = False) -> str:
    """A Euchre call as players say it (``order up``, ``call ♥ alone``)."""
    if call == Call.PASS:
        return _("pass")
    text = _("order up") if call == Call.ORDER else _("call {suit}", suit=SUIT_SYMBOLS[call])
    return _("{call} alone", call=text) if alone else text


# Letters typed as two: the ligatures (French *cœur*, *ex æquo*; casefold writes ß as ss) —
# and, as a second spelling of a word (:func:`spellings`), German umlauts without their dots.
_LIGATURES: Final = str.maketrans({"œ": "oe", "æ": "ae"})
_UMLAUTS: Final = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def fold(text: str) -> str:
    """Lower case without accents or ligatures, one space between words: ``Trèfle`` →
    ``trefle``, ``cœur`` → ``coeur``, ``Großer`` → ``grosser``."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_LIGATURES))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.replace("-", " ").replace("'", " ").split())


def spellings(word: str) -> frozenset[str]:
    """The ways ``word`` is commonly typed, folded: its letters without their accents
    (``König`` → ``konig``) and, where it has umlauts, with the ``e`` that stands for the dots
    on a keyboard without them (``koenig``)."""
    spelled = unicodedata.normalize("NFC", word.casefold()).translate(_UMLAUTS)
    return frozenset({fold(word), fold(spelled)})


# Other words players type for the same thing, beyond the catalogs' (each read in all its
# spellings: "corazon" is also "corazón", "schuppe" also "schüppe").
_RANK_SYNONYMS: Final = {
    "es": {"dama": 12, "sota": 11, "j": 11, "q": 12, "k": 13, "a": 14},
    "pt_BR": {"as": 14, "rainha": 12, "valete": 11, "j": 11, "q": 12, "k": 13, "a": 14},
    "fr": {"v": 11, "d": 12, "r": 13, "a": 14},
    "de": {"as": 14, "b": 11, "d": 12, "k": 13, "a": 14, "bauer": 11},
}
_SUIT_SYNONYMS: Final = {
    "es": {"pica": "S", "corazón": "H", "diamante": "D", "trébol": "C"},
    "pt_BR": {"espada": "S", "copa": "H", "ouro": "D", "pau": "C"},
    "fr": {},  # singular and plural are both the catalogs' ("cœur", "cœurs")
    "de": {"schippe": "S", "schüppe": "S", "treff": "C", "eckstein": "D"},
}
_JOKER_SYNONYMS: Final = {
    "es": {"comodín grande": "BJ", "comodín pequeño": "LJ", "comodín chico": "LJ"},
    "pt_BR": {"coringa grande": "BJ", "coringa pequeno": "LJ"},
    "fr": {},
    "de": {},
}

Vocabulary = tuple[dict[str, int], dict[str, str], dict[str, str]]


@functools.cache
def _vocabulary(language: str) -> Vocabulary:
    """(rank words, suit words, joker words) of ``language``, in every spelling (the catalogs
    do not change while the bot runs)."""
    with use(language):
        ranks = {rank_word(r): r for r in RANK_WORDS}
        suits = {suit_name(s): s for s in SUITS} | {_card_suit(s): s for s in SUITS}
        jokers = {_("big joker"): "BJ", _("little joker"): "LJ"}
    ranks.update(_RANK_SYNONYMS.get(language, {}))
    suits.update(_SUIT_SYNONYMS.get(language, {}))
    jokers.update(_JOKER_SYNONYMS.get(language, {}))
    return _spelled(ranks), _spelled(suits), _spelled(jokers)


def _spelled(words: dict[str, _V]) -> dict[str, _V]:
    return {spelled: value for word, value in words.items() for spelled in spellings(word)}


_WORDS: Final = re.compile(r"^(\w+)\s+(?:(?:of|de|do|da|des|du)\s+)?(\w+)$")


def _rank_of(word: str, ranks: dict[str, int]) -> int | None:
    if word in ranks:
        return ranks[word]
    value = RANK_NAMES.get(word)
    return value if value is not None and word.isdigit() else None


def _parse_in(folded: str, language: str) -> Card | None:
    ranks, suits, jokers = _vocabulary(language)
    if folded in jokers:
        return card(jokers[folded])
    m = _WORDS.match(folded)
    if m is None:
        return None
    first, second = m[1], m[2]
    for rank_text, suit_text in ((first, second), (second, first)):  # "Pik Ass" in German
        rank = _rank_of(rank_text, ranks)
        suit = suits.get(suit_text)
        if rank is not None and suit is not None:
            return card(("T" if rank == 10 else "23456789TJQKA"[rank - 2]) + suit)
    return None


def parse_card(text: str, language: str | None = None) -> Card:
    """A card typed in English (``AS``, ``10h``, ``A♠``, ``ace of spades``) or in words of
    a shipped language (``as de picas``, ``Pik Ass``, ``dame de cœur``): ``language`` first,
    then the others.  Raises :class:`~bot.engine.errors.CardParseError`."""
    try:
        return parse_en(text)
    except CardParseError:
        pass
    first = language or current()
    folded = fold(text)
    for lang in (first, *(x for x in LANGUAGES if x != first)):
        found = _parse_in(folded, lang)
        if found is not None:
            return found
    raise CardParseError(text.strip())


def typed_matches(typed: str, *names: str) -> bool:
    """Does what a player is typing (autocomplete) fit one of ``names``, however they spell
    it (``a l aveugle`` fits *à l'aveugle*, ``koe`` fits *König*)?"""
    t = fold(typed)
    return not t or any(t in spelled for name in names for spelled in spellings(name))


def cards_matching(cards: Iterable[Card], typed: str) -> list[Card]:
    """The ``cards`` what a player is typing (autocomplete) fits, in their words: a card it
    names whole (``9 de coeurs``, ``Herz Koenig``: what ``/play`` reads), or whose name, code or
    symbols it is a part of (``9 de c``, ``herz k``)."""
    try:
        named: Card | None = parse_card(typed) if typed.strip() else None
    except CardParseError:
        named = None
    return [
        c for c in cards if c == named or typed_matches(typed, str(c), c.code, card_name(c), c.name)
    ]


def bid_words(text: str) -> str:
    """A bid typed in any shipped language, as the English ``/bid`` reads it:
    ``nulo`` → ``nil``, ``nulo a ciegas`` → ``blind nil``, ``6 a ciegas`` → ``blind 6``."""
    t = fold(text)
    for lang in LANGUAGES:  # the words first: German "Blind-Null" is blind nil, not blind 0
        with use(lang):
            if t == fold(_("nil")):
                return "nil"
            if t == fold(_("blind nil")):
                return "blind nil"
            if t == fold(_("look at my cards")):
                return "look"
    for lang in LANGUAGES:
        with use(lang):
            before, _sep, after = fold(_("blind {bid}", bid="#")).partition("#")
        rest = t.removeprefix(before).removesuffix(after).strip()
        if (before or after) and t.startswith(before) and t.endswith(after) and rest.isdigit():
            return f"blind {rest}"
    return text


@dataclass(frozen=True, slots=True)
class SeatWord:
    """A seat, named in the language of wherever it is written (in a :class:`Text`)."""

    seat: Seat

    def __str__(self) -> str:
        return seat_word(self.seat)


@dataclass(frozen=True, slots=True)
class BidWord:
    """A bid, said in the language of wherever it is written (in a :class:`Text`)."""

    value: int
    blind: bool = False

    def __str__(self) -> str:
        return bid_word(self.value, self.blind)


def call_words(text: str) -> str:
    """A Euchre call typed in any shipped language, in the English words ``/bid`` reads:
    ``paso`` → ``pass``, ``pedir solo`` → ``order up alone``, ``Herz allein`` → ``hearts
    alone``."""
    words = fold(text).split()
    table: dict[str, str] = {}
    for lang in LANGUAGES:
        with use(lang):
            table[fold(_("pass"))] = "pass"
            table[fold(_("order up"))] = "order up"
            for word in fold(_("{call} alone", call="#")).replace("#", " ").split():
                table[word] = "alone"
            for word in fold(_("call {suit}", suit="#")).replace("#", " ").split():
                table[word] = "call"
            for s in SUITS:
                table[fold(suit_name(s))] = SUIT_WORDS[s]
                table[fold(_card_suit(s))] = SUIT_WORDS[s]
    joined = " ".join(words)
    for phrase, english in sorted(table.items(), key=lambda kv: -len(kv[0])):
        if " " in phrase and phrase in joined:
            joined = joined.replace(phrase, english)
    return " ".join(table.get(w, w) for w in joined.split())


def seat_of_word(text: str) -> Seat | None:
    """A seat named in any shipped language (``Norte``, ``Süd``, ``Sued``, ``Ouest``), or
    ``None``."""
    t = fold(text)
    for lang in LANGUAGES:
        with use(lang):
            for s in Seat:
                if t in spellings(seat_word(s)):
                    return s
    return None
