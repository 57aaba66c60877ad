"""Renege claims (games.md G1, G7): ``renege = claim``.

Any card in hand may be played.  A play is a *renege* when its player could have followed the
suit led, or leads a spade before spades are broken while holding a non-spade; the game notes
it privately (a renege spade lead does not break spades; a spade on another suit's lead does,
renege or not).  During the play any player may :class:`~bot.engine.actions.Claim` that one
opponent has reneged; the claim is judged at once against the plays so far and its result is
public.  A wrong claim bars the claimant's side from claiming again this hand; only the first
correct claim against a side counts.  When the hand ends, each caught side is penalised:

* ``round``: the caught side scores ``min(0, p)`` and no bags, every side not caught adds
  ``max(0, p)`` to its own result (``p`` = the caught side's §5 points, bag penalty excluded);
* ``250``: the caught side scores −250 and no bags; every side not caught scores as if it had
  made its contract exactly and every nil bid succeeded, with no bags and no joker bonus;
* every side caught: each scores only its own penalty.

:class:`RenegeClaims` adds this to a Spades game class (partnerships or solo); the classes
that use it are built in :mod:`bot.engine.spades.variants`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from bot.engine.actions import (
    BLIND_NIL,
    NIL,
    PLAYS,
    Action,
    Claim,
    ClaimResult,
    Deal,
    Play,
)
from bot.engine.build import mypyc_attr
from bot.engine.errors import CardNotInHand, IllegalAction, NotYourTurn, WrongPhase
from bot.engine.game import PHASE_REFUSAL, Phase
from bot.engine.lines import Line
from bot.engine.scoring import WINS, ScorePart, TeamHandScore
from bot.engine.seats import SEATS, Seat, Team
from bot.engine.spades.game import SpadesGame

FIXED_PENALTY: Final = 250


class Renege(NamedTuple):
    """A renege noted privately: the play number (from 1), its seat, its trick (from 1)."""

    play: int
    seat: int
    trick: int


class ClaimError(IllegalAction):
    """A claim that may not be made now."""


# Compiled, and a base of bot.engine.spades.variants' classes, which are not (mypyc compiles
# no class of two bases).
@mypyc_attr(allow_interpreted_subclasses=True)
class RenegeClaims(SpadesGame):
    """Renege claims on top of a Spades game class (partnerships, or solo: the solo class adds
    no slots, so both can be bases of one class)."""

    __slots__ = ("_caught", "_claim_barred", "_claims", "_reneges")

    def _reset_hand(self) -> None:
        super()._reset_hand()
        sides = len(self.seating.sides)
        self._reneges: list[Renege] = []
        self._claims: list[ClaimResult] = []
        self._caught = [False] * sides
        self._claim_barred = [False] * sides

    # ------------------------------------------------------------------ queries
    @property
    def claim_results(self) -> tuple[ClaimResult, ...]:
        return tuple(self._claims)

    @property
    def spades_broken(self) -> bool:
        """What everyone can see: a spade has been played (the engine's own rule of breaking,
        under which a renege spade lead does not break spades, would reveal reneges)."""
        trumps = self._trumps
        return any(trumps >> i & 1 for i in self._plays)

    def reneged(self, seat: Seat | int) -> bool:
        """Engine-internal (never shown): has ``seat`` reneged this hand?"""
        return any(r.seat == seat for r in self._reneges)

    def may_claim(self, seat: Seat | int) -> bool:
        """May ``seat`` make a claim now (play under way, its side not barred)?"""
        return (
            self.phase is Phase.PLAY
            and bool(self._plays)
            and seat in self.seating.seats
            and not self._claim_barred[self.seating.side_of(seat)]
        )

    def claim_targets(self, seat: Seat | int) -> tuple[Seat, ...]:
        """The opponents ``seat`` may claim against now (none when it may not claim)."""
        if not self.may_claim(seat):
            return ()
        side = self.seating.side_of(seat)
        return tuple(s for s in self.seating.seats if self.seating.side_of(s) != side)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: Seat | int | None = None) -> list[Action]:
        """In play: every card in the hand of the seat on turn (claims are offered apart, by
        :meth:`claim_targets`, since any seat may claim at any moment)."""
        if self.phase is Phase.PLAY:
            turn = self._turn
            if seat is not None and seat != turn:
                return []
            mask = self._hands[turn]
            plays = PLAYS[turn]
            out: list[Action] = []
            while mask:
                low = mask & -mask
                out.append(plays[low.bit_length() - 1])
                mask ^= low
            return out
        return super().legal_actions(seat)

    # ------------------------------------------------------------------ checking
    def check(self, action: Action | Deal) -> None:
        if isinstance(action, Claim):
            self._check_claim(action)
        elif isinstance(action, Play) and self.phase is Phase.PLAY:
            self._check_any_card(action.seat, action.card.index)
        else:
            super().check(action)

    def _check_any_card(self, seat: Seat | int, idx: int) -> None:
        """Only whose turn it is and whether the card is held: never whether it reneges."""
        if seat != self._turn:
            raise NotYourTurn(Line("It is {seat}'s turn to play", seat=SEATS[self._turn]))
        if not self._hands[seat] >> idx & 1:
            raise CardNotInHand(Line("You don't hold {card}", card=str(PLAYS[seat][idx].card)))

    def _check_claim(self, claim: Claim) -> None:
        if self.phase is Phase.OVER:
            raise ClaimError(PHASE_REFUSAL[Phase.OVER])
        if self.phase is not Phase.PLAY:
            raise WrongPhase(
                Line(
                    "{phase}: claims are made while the cards are played",
                    phase=PHASE_REFUSAL[self.phase],
                )
            )
        seating = self.seating
        if claim.seat not in seating.seats or claim.against not in seating.seats:
            raise ClaimError(Line("Only players at this table can claim or be claimed against"))
        if not self._plays:
            raise ClaimError(Line("No card has been played yet this hand"))
        side = seating.side_of(claim.seat)
        if seating.side_of(claim.against) == side:
            raise ClaimError(Line("You can only claim against an opponent"))
        if self._claim_barred[side]:
            if len(seating.sides[side]) == 1:
                raise ClaimError(Line("You made a wrong claim this hand, so cannot claim again"))
            raise ClaimError(Line("Your team made a wrong claim this hand, so cannot claim again"))

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action | Deal) -> None:
        if type(action) is Play:
            if self.phase is not Phase.PLAY:
                super().check(action)
            seat = action.seat
            idx = action.card.index
            hand = self._hands[seat]
            if seat != self._turn or not hand >> idx & 1:
                self._check_any_card(seat, idx)
            self._play_noting(seat, idx, hand)
        elif type(action) is Claim:
            self._check_claim(action)
            self._claim(action)
        else:
            super().apply(action)

    def _play_noting(self, seat: int, idx: int, hand: int) -> None:
        """Play a card, noting a renege privately (before the play: it may end the hand)."""
        bit = 1 << idx
        if self._trick:
            lead = self._lead_mask
            if not bit & lead and hand & lead:
                self._note(seat)
            if self._broken or not lead & self._trumps:
                self._play(seat, idx)
                return
            # A spade on an unbroken (renege) spade lead is no spade on another suit's lead:
            # spades stay unbroken (unless the hand just ended and everything was reset).
            block = self._lead_block
            self._play(seat, idx)
            if self._plays:
                self._broken = False
                self._lead_block = block
            return
        block = self._lead_block
        if bit & block and hand & ~block:
            self._note(seat)
            broken = self._broken
            self._play(seat, idx)
            # A renege spade lead does not break spades (G7); a lead never ends a trick.
            self._broken = broken
            self._lead_block = block
            return
        self._play(seat, idx)

    def _note(self, seat: int) -> None:
        self._reneges.append(Renege(len(self._plays) + 1, seat, len(self._tricks_history) + 1))

    def _claim(self, claim: Claim) -> ClaimResult:
        seating = self.seating
        first = next((r for r in self._reneges if r.seat == claim.against), None)
        after = len(self._plays)
        if first is None:
            self._claim_barred[seating.side_of(claim.seat)] = True
            result = ClaimResult(claim.seat, claim.against, after, False)
        else:
            side = seating.side_of(claim.against)
            counted = not self._caught[side]
            self._caught[side] = True
            result = ClaimResult(claim.seat, claim.against, after, True, first.trick, counted)
        self._claims.append(result)
        return result

    # ------------------------------------------------------------------ scoring
    def _penalise(self, results: list[TeamHandScore]) -> list[TeamHandScore]:
        caught = self._caught
        if not any(caught):
            return results
        fixed = self.rules.renege_penalty == FIXED_PENALTY
        # Each side as the sheet names it: a partnership, or the player of a solo game.
        sides = [m[0] if len(m) == 1 else Team(m[0] & 1) for m in self.seating.sides]
        # p: each caught side's points without the bag penalty (G7: steps 1-4 and 6).
        p = [res.points + res.bag_penalty for res in results]
        out: list[TeamHandScore] = []
        for side, res in enumerate(results):
            before = res.score - res.points
            bag_before = self.bag_counts[side]
            if caught[side]:
                if fixed:
                    part = ScorePart("renege", Line("Caught reneging"), -FIXED_PENALTY)
                else:
                    kept = min(0, p[side])
                    label = (
                        Line(
                            "Caught reneging: the hand's {n} points go to the opponents", n=p[side]
                        )
                        if p[side] > 0
                        else Line("Caught reneging: the hand scores, no bags")
                    )
                    part = ScorePart("renege", label, kept)
                parts: tuple[ScorePart, ...] = (part,)
                out.append(_sheet(parts, before, bag_before, res.was_set, caught=True))
            elif fixed:
                parts, event = self._made_exactly(side)
                out.append(_sheet(parts, before, bag_before, False, event=event))
            else:
                extra = tuple(
                    ScorePart("renege", Line("{side} reneged: their points", side=sides[k]), p[k])
                    for k in range(len(results))
                    if caught[k] and p[k] > 0
                )
                gain = sum(x.points for x in extra)
                out.append(
                    res._replace(
                        points=res.points + gain, score=res.score + gain, parts=res.parts + extra
                    )
                )
        return out

    def _made_exactly(self, side: int) -> tuple[tuple[ScorePart, ...], str | None]:
        """G7 under ``250``: the side's contract made exactly and each nil bid successful."""
        r = self.rules
        members = self.seating.sides[side]
        bids = [self._bids[s] for s in members]
        contract = sum(b for b in bids if b is not None and b > 0)
        parts: list[ScorePart] = []
        event: str | None = None
        if contract:
            made = Line("Contract {n} counted as made", n=contract)
            parts.append(ScorePart("contract", made, 10 * contract))
        nils = [(s, b) for s, b in zip(members, bids, strict=True) if b is not None and b <= NIL]
        if len(nils) == 2 and all(b == BLIND_NIL for _, b in nils) and r.double_blind_nil != "off":
            if r.double_blind_nil == "decides_game":
                event = WINS
                parts.append(ScorePart("double_blind_nil", DOUBLE_BLIND_NIL_COUNTED, 800))
            else:
                parts.append(ScorePart("double_blind_nil", DOUBLE_BLIND_NIL_COUNTED, 400))
        elif len(nils) == 2 and all(b == NIL for _, b in nils) and r.double_nil == "team":
            made = Line("Double nil counted as made")
            parts.append(ScorePart("double_nil", made, r.double_nil_value))
        else:
            for s, b in nils:
                if b == BLIND_NIL:
                    made = Line("{seat}'s blind nil counted as made", seat=s)
                    parts.append(ScorePart("blind_nil", made, r.blind_nil_value, s))
                else:
                    made = Line("{seat}'s nil counted as made", seat=s)
                    parts.append(ScorePart("nil", made, r.nil_value, s))
        return tuple(parts), event


DOUBLE_BLIND_NIL_COUNTED: Final = Line("Double blind nil counted as made")


def _sheet(
    parts: tuple[ScorePart, ...],
    before: int,
    bag_before: int,
    was_set: bool,
    *,
    caught: bool = False,
    event: str | None = None,
) -> TeamHandScore:
    points = sum(x.points for x in parts)
    return TeamHandScore(
        points,
        0,
        0,
        before + points,
        bag_before,
        event=event,
        was_set=was_set,
        parts=parts,
        caught=caught,
    )
