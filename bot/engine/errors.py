"""Typed engine errors.  Every refusal carries a ``reason`` a player can read."""

from __future__ import annotations


class GameError(Exception):
    """Base of every engine error, in every game (a refusal, a bad card, rule or record)."""

    reason: str

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CardParseError(GameError, ValueError):
    """Text that is not a card."""

    def __init__(self, text: str) -> None:
        super().__init__(
            f"I don't know the card {text!r}: try a code like AS or 10H, A♠, or 'queen of hearts'"
        )
        self.text = text


class RulesError(GameError, ValueError):
    """An unknown rule option, or a value an option does not take."""

    def __init__(self, reason: str, option: str | None = None) -> None:
        super().__init__(reason)
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
    def __init__(self, reason: str, suit: str) -> None:
        super().__init__(reason)
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

    def __init__(self, reason: str, details: dict[str, object]) -> None:
        super().__init__(reason)
        self.details = details


class NotVerified(GameError):
    """A record whose deals do not come from its revealed seed, whose seed does not match its
    commitment, or that has no seed (docs/verifiable-deals.md); ``reason`` is one line naming
    the hand and the seat or card."""
