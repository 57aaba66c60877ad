"""Typed engine errors.  Every one carries its reason as a :class:`~bot.engine.lines.Line`
(``line``: what a player reads, in their language at the edge); ``reason`` and ``str(error)``
are its English (logs, records, tests)."""

from __future__ import annotations

from bot.engine.lines import Line, plain


class GameError(Exception):
    """Base of every engine error, in every game (a refusal, a bad card, rule or record)."""

    line: Line
    reason: str

    def __init__(self, line: Line) -> None:
        if not isinstance(line, Line):  # plain words, from a game defined outside the engine
            line = plain(str(line))
        english = str(line)
        super().__init__(english)
        self.line = line
        self.reason = english


class CardParseError(GameError, ValueError):
    """Text that is not a card."""

    def __init__(self, text: str) -> None:
        super().__init__(
            Line(
                "I don't know the card {card}: try a code like AS or 10H, A♠, or 'queen of hearts'",
                card=repr(text),
            )
        )
        self.text = text


class RulesError(GameError, ValueError):
    """An unknown rule option, or a value an option does not take."""

    def __init__(self, line: Line, option: str | None = None) -> None:
        super().__init__(line)
        self.option = option


class IllegalAction(GameError):
    """An action the rules do not allow now.  The state is unchanged."""

    kind = "illegal action"


class WrongPhase(IllegalAction):
    pass


class NotYourTurn(IllegalAction):
    pass


class GameOver(IllegalAction):
    pass


class IllegalBid(IllegalAction):
    kind = "illegal bid"


class BlindNilNotAllowed(IllegalBid):
    pass


class MustLookFirst(IllegalBid):
    pass


class IllegalPass(IllegalAction):
    kind = "illegal pass"


class IllegalPlay(IllegalAction):
    kind = "illegal play"


class CardNotInHand(IllegalPlay):
    pass


class MustFollowSuit(IllegalPlay):
    def __init__(self, line: Line, suit: str) -> None:
        super().__init__(line)
        self.suit = suit


class LeadNotAllowed(IllegalPlay):
    """A card the leader may not lead yet."""


class SpadesNotBroken(LeadNotAllowed):
    pass


class IllegalCall(IllegalAction):
    """Euchre: a call (order up, pass, name a suit, alone) the rules do not allow now."""

    kind = "illegal call"


class MustNameSuit(IllegalCall):
    """Euchre, stick the dealer: the dealer may not pass in the second round."""


class IllegalDiscard(IllegalAction):
    kind = "illegal discard"


class InvalidDeal(IllegalAction):
    kind = "invalid deal"


class RecordError(GameError):
    """A ``spades-record/1`` document that cannot be read or replayed.

    ``details`` holds the JSON fields of the error line (``error``, ``hand``, the action).
    """

    def __init__(self, line: Line, details: dict[str, object]) -> None:
        super().__init__(line)
        self.details = details


class NotVerified(GameError):
    """A record whose deals do not come from its revealed seed, whose seed does not match its
    commitment, or that has no seed (docs/verifiable-deals.md); ``reason`` is one line naming
    the hand and the seat or card (``line`` is that reason with its parts)."""
