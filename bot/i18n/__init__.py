"""Every player in their own language: catalogs, the language of each answer, card words,
command localisations (see :mod:`bot.i18n.core`)."""

from bot.i18n.core import (
    LANGUAGE_NAMES,
    LANGUAGES,
    N_,
    SOURCE,
    Text,
    _,
    _n,
    _p,
    current,
    date_time,
    language_of,
    later,
    number,
    set_language,
    signed,
    use,
)
from bot.i18n.servers import SERVER_LANGUAGES, answering, for_server

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "SERVER_LANGUAGES",
    "SOURCE",
    "Text",
    "_",
    "_n",
    "_p",
    "answering",
    "current",
    "date_time",
    "for_server",
    "language_of",
    "later",
    "number",
    "set_language",
    "signed",
    "use",
]
