"""The play of one hand with every card known: state, a fast play-out policy, nothing else.

Hands are ``int`` masks in :class:`~bot.ai.search.layout.Layout` numbering; a trick in
progress is its cards' mask plus the seat of each card, the current winning card and seat.
The inner loop creates no objects but the per-trick goal tuple.

The play-out policy reads the exact hands (a determinized world): each seat knows whether a
card of its can still be beaten by a seat to play after it.  Per seat and trick it has one of
four aims, from the game's :class:`SearchRules.goals`: keep its own nil, cover its partner's nil,
catch an opponent's nil, or take / avoid tricks for its side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.ai.search.layout import Layout

# goals(tricks per seat, tricks still to play) -> (wants tricks per team, nil alive per seat)
Goals = Callable[[Sequence[int], int], tuple[Sequence[bool], Sequence[bool]]]
# bonus(trick cards mask, winner seat, seats by card) -> points per team (Spades: jokers)
Bonus = Callable[[int, int, dict[int, int]], Sequence[int]]


class SearchRules:
    """The static rules of a hand as the search needs them (built by a game adapter)."""

    __slots__ = (
        "after",
        "bonus",
        "bonus_cards",
        "goals",
        "layout",
        "n_play",
        "nxt",
        "opps_after",
        "partner",
        "restrict_trump_lead",
        "seats",
        "team_of",
        "teams",
        "tricks_per_hand",
    )

    def __init__(
        self,
        layout: Layout,
        team_of: Sequence[int],
        partner: Sequence[int],
        active: Sequence[int],
        tricks_per_hand: int,
        restrict_trump_lead: bool,
        goals: Goals,
        bonus_cards: int = 0,
        bonus: Bonus | None = None,
    ) -> None:
        self.layout = layout
        self.seats = len(team_of)
        self.team_of = tuple(team_of)
        self.teams = max(team_of) + 1
        self.partner = tuple(partner)  # -1: no partner (solo, or partner sitting out)
        nxt = [-1] * self.seats
        act = list(active)
        for j, s in enumerate(act):
            nxt[s] = act[(j + 1) % len(act)]
        self.nxt = tuple(nxt)
        self.n_play = len(act)
        # after[seat][k]: the seats to play after ``seat`` in a trick that had k cards before
        # its card; opps_after: those of another team.
        after: list[tuple[tuple[int, ...], ...]] = []
        for seat in range(self.seats):
            rows = []
            for k in range(self.n_play):
                row = []
                x = nxt[seat]
                for _ in range(self.n_play - 1 - k):
                    row.append(x)
                    x = nxt[x]
                rows.append(tuple(row))
            after.append(tuple(rows))
        self.after = tuple(after)
        self.opps_after = tuple(
            tuple(tuple(x for x in row if team_of[x] != team_of[seat]) for row in rows)
            for seat, rows in enumerate(after)
        )
        self.tricks_per_hand = tricks_per_hand
        self.restrict_trump_lead = restrict_trump_lead
        self.goals = goals
        self.bonus_cards = bonus_cards
        self.bonus = bonus


class State:
    """A position of the play phase with every hand known."""

    __slots__ = (
        "broken",
        "extra",
        "hands",
        "lead",
        "t",
        "trick",
        "trick_seat",
        "tricks",
        "turn",
        "win",
        "win_seat",
    )

    def __new__(cls, *args: object) -> State:
        """Allocation only: :meth:`copy` fills every slot itself (and a class compiled by mypyc
        is allocated by its own ``__new__``)."""
        return super().__new__(cls)

    def __init__(
        self,
        t: SearchRules,
        hands: list[int],
        turn: int,
        trick: Sequence[tuple[int, int]],
        broken: bool,
        tricks: list[int],
        extra: list[int],
    ) -> None:
        """``trick``: the cards on the table as (seat, card) in search numbering."""
        self.t = t
        self.hands = hands
        self.turn = turn
        self.broken = broken
        self.tricks = tricks
        self.extra = extra
        self.trick = 0
        self.trick_seat: dict[int, int] = {}
        self.lead = 0
        self.win = -1
        self.win_seat = -1
        lay = t.layout
        for s, c in trick:
            if not self.trick:
                self.lead = lay.suit_masks[lay.suit_of[c]]
                self.win, self.win_seat = c, s
            elif (1 << c) & lay.beats[self.win]:
                self.win, self.win_seat = c, s
            self.trick |= 1 << c
            self.trick_seat[c] = s

    def copy(self) -> State:
        s = State.__new__(State)
        s.t = self.t
        s.hands = self.hands.copy()
        s.turn = self.turn
        s.broken = self.broken
        s.tricks = self.tricks.copy()
        s.extra = self.extra.copy()
        s.trick = self.trick
        s.trick_seat = self.trick_seat.copy()
        s.lead = self.lead
        s.win = self.win
        s.win_seat = self.win_seat
        return s

    def in_play(self) -> int:
        m = 0
        for h in self.hands:
            m |= h
        return m

    def legal(self) -> int:
        hand = self.hands[self.turn]
        if self.trick:
            f = hand & self.lead
            return f or hand
        t = self.t
        if t.restrict_trump_lead and not self.broken:
            return (hand & ~t.layout.trump) or hand
        return hand

    def play(self, c: int) -> None:
        """Play card ``c`` for the seat on turn (must be legal)."""
        t = self.t
        lay = t.layout
        seat = self.turn
        bit = 1 << c
        self.hands[seat] ^= bit
        if not self.trick:
            self.lead = lay.suit_masks[lay.suit_of[c]]
            self.win, self.win_seat = c, seat
        elif bit & lay.beats[self.win]:
            self.win, self.win_seat = c, seat
        if bit & lay.trump:
            self.broken = True
        self.trick |= bit
        self.trick_seat[c] = seat
        if len(self.trick_seat) < t.n_play:
            self.turn = t.nxt[seat]
            return
        w = self.win_seat
        self.tricks[w] += 1
        if self.trick & t.bonus_cards and t.bonus is not None:
            add = t.bonus(self.trick, w, self.trick_seat)
            for k, v in enumerate(add):
                self.extra[k] += v
        self.trick = 0
        self.trick_seat = {}
        self.win = -1
        self.win_seat = -1
        self.turn = w

    def tricks_left(self) -> int:
        return self.t.tricks_per_hand - sum(self.tricks)

    def policy(self) -> int:
        """The play-out policy's card for the seat on turn."""
        legal = self.legal()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        want, nil = self.t.goals(self.tricks, self.tricks_left())
        return choose(self, legal, want, nil)

    def run(self) -> None:
        """Play the hand out with the policy."""
        t = self.t
        goals = t.goals
        hands = self.hands
        restrict = t.restrict_trump_lead
        trump = t.layout.trump
        want: Sequence[bool] = ()
        nil: Sequence[bool] = ()
        fresh = True
        while True:
            if not self.trick:
                left = t.tricks_per_hand - sum(self.tricks)
                if left <= 0 or not hands[self.turn]:
                    return
                fresh = True
            hand = hands[self.turn]
            if self.trick:
                legal = hand & self.lead or hand
            elif restrict and not self.broken:
                legal = hand & ~trump or hand
            else:
                legal = hand
            if legal & (legal - 1) == 0:
                self.play(legal.bit_length() - 1)
                continue
            if fresh:
                want, nil = goals(self.tricks, t.tricks_per_hand - sum(self.tricks))
                fresh = False
            self.play(choose(self, legal, want, nil))


# --------------------------------------------------------------------------- the policy
def _can_beat(st: State, seat: int, card: int) -> bool:
    """May ``seat`` (still to play in this trick) beat ``card``?"""
    h = st.hands[seat]
    f = h & st.lead
    return ((f or h) & st.t.layout.beats[card]) != 0


def _safe_winner(st: State, beat: int, opps: Sequence[int]) -> int:
    """The cheapest card of ``beat`` no seat of ``opps`` can beat (-1: none)."""
    while beat:
        low = beat & -beat
        c = low.bit_length() - 1
        if not any(_can_beat(st, o, c) for o in opps):
            return c
        beat ^= low
    return -1


def discard(lay: Layout, hand: int, pool: int) -> int:
    """A cheap card of ``pool``: low, from a short side suit; trumps last."""
    side = pool & ~lay.trump
    if side:
        pool = side
    best = -1
    key = 1 << 30
    masks = lay.suit_masks
    for m in masks:
        p = pool & m
        if p:
            c = (p & -p).bit_length() - 1
            k = lay.rank[c] * 16 + (hand & m).bit_count()
            if k < key:
                key = k
                best = c
    return best


def _shed(lay: Layout, pool: int) -> int:
    """The highest-ranked card of ``pool`` (to get rid of a danger)."""
    best = -1
    key = -1
    for m in lay.suit_masks:
        p = pool & m
        if p:
            c = p.bit_length() - 1
            r = lay.rank[c]
            if r > key:
                key = r
                best = c
    return best


def _sure_lead(st: State, c: int, opps: list[int]) -> bool:
    """Would card ``c``, led now, win against every opponent's holding?"""
    lay = st.t.layout
    suit = lay.suit_masks[lay.suit_of[c]]
    beats = lay.beats[c]
    for o in opps:
        h = st.hands[o]
        f = h & suit
        if (f or h) & beats:
            return False
    return True


def choose(st: State, legal: int, want: Sequence[bool], nil: Sequence[bool]) -> int:
    """The policy's card for the seat on turn; ``legal`` has at least two cards."""
    t = st.t
    me = st.turn
    lay = t.layout
    team = t.team_of
    partner = t.partner[me]
    p_nil = partner >= 0 and nil[partner]
    my_team = team[me]
    opp_nils = [s for s in range(t.seats) if nil[s] and team[s] != my_team] if True in nil else []
    if not st.trick:
        return _lead(st, legal, want[my_team], nil[me], partner, p_nil, opp_nils)
    hand = st.hands[me]
    w = st.win
    ws = st.win_seat
    beat = legal & lay.beats[w]
    low = legal & ~beat
    k = len(st.trick_seat)
    after = t.after[me][k]
    opps_after = t.opps_after[me][k]
    if nil[me]:
        if low:
            return _shed(lay, low)
        c = (beat & -beat).bit_length() - 1
        if any(_can_beat(st, s, c) for s in after):
            return c
        return beat.bit_length() - 1
    if p_nil and (ws == partner or partner in after):
        if beat:
            c = _safe_winner(st, beat, opps_after)
            return c if c >= 0 else _shed(lay, beat)
        return discard(lay, hand, legal)
    if opp_nils:
        if ws in opp_nils:
            if low:
                return _shed(lay, low)
            return (beat & -beat).bit_length() - 1
        if any(o in after for o in opp_nils):
            if low:
                return (low & -low).bit_length() - 1
            return (beat & -beat).bit_length() - 1
    if want[my_team]:
        if ws == partner and not any(_can_beat(st, o, w) for o in opps_after):
            return discard(lay, hand, low or legal)
        c = _safe_winner(st, beat, opps_after)
        if c >= 0:
            return c
        return discard(lay, hand, low or legal)
    # Duck: stay under the winning card if possible, else take it with the highest card.
    if low:
        return _shed(lay, low)
    c = (beat & -beat).bit_length() - 1
    if any(_can_beat(st, s, c) for s in after):
        return c
    return beat.bit_length() - 1


def _lead(
    st: State,
    legal: int,
    want: bool,
    me_nil: bool,
    partner: int,
    p_nil: bool,
    opp_nils: list[int],
) -> int:
    t = st.t
    lay = t.layout
    me = st.turn
    hand = st.hands[me]
    team = t.team_of
    others = [s for s in range(t.seats) if s != me and t.nxt[s] >= 0 and st.hands[s]]
    opps = [s for s in others if team[s] != team[me]]
    side = legal & ~lay.trump
    masks = lay.suit_masks
    if me_nil:
        # The lowest card someone else can beat.
        best = -1
        key = 1 << 30
        for m in masks:
            p = legal & m
            if not p:
                continue
            c = (p & -p).bit_length() - 1
            if any(_can_beat_lead(st, s, c) for s in others):
                k = lay.rank[c] + (32 if m == lay.trump else 0)
                if k < key:
                    key = k
                    best = c
        return best if best >= 0 else (legal & -legal).bit_length() - 1
    if p_nil:
        for pool in (side, legal & lay.trump):
            for m in masks:
                p = pool & m
                if p:
                    c = p.bit_length() - 1
                    if _sure_lead(st, c, opps):
                        return c
        pool = side or legal
        best = -1
        n_best = -1
        for m in masks:
            p = pool & m
            if p and (hand & m).bit_count() > n_best:
                n_best = (hand & m).bit_count()
                best = p.bit_length() - 1
        return best
    if opp_nils:
        o = opp_nils[0]
        oh = st.hands[o]
        best = -1
        key = -1
        for m in masks:
            p = legal & m
            if p and oh & m and m != lay.trump:
                c = (p & -p).bit_length() - 1
                k = lay.rank[(oh & m & -(oh & m)).bit_length() - 1] - lay.rank[c]
                if k > key:
                    key = k
                    best = c
        if best >= 0:
            return best
    if want:
        for pool in (side, legal & lay.trump):
            for m in masks:
                p = pool & m
                if p:
                    c = p.bit_length() - 1
                    if _sure_lead(st, c, opps):
                        return c
        # Lead low to a partner's sure winner.
        if partner >= 0 and st.hands[partner]:
            ph = st.hands[partner]
            for m in masks:
                p = legal & m
                pm = ph & m
                if p and pm:
                    top = pm.bit_length() - 1
                    if top > p.bit_length() - 1 and _sure_lead(st, top, opps):
                        return (p & -p).bit_length() - 1
        pool = side or legal
        best = -1
        n_best = -1
        for m in masks:
            p = pool & m
            if p:
                n = (hand & m).bit_count()
                if n > n_best:
                    n_best = n
                    best = (p & -p).bit_length() - 1
        return best
    # Avoid tricks: the lowest card an opponent can beat, side suits first.
    best = -1
    key = 1 << 30
    for m in masks:
        p = legal & m
        if not p:
            continue
        c = (p & -p).bit_length() - 1
        k = lay.rank[c] + (32 if m == lay.trump else 0)
        if not any(_can_beat_lead(st, s, c) for s in opps):
            k += 64
        if k < key:
            key = k
            best = c
    return best


def _can_beat_lead(st: State, seat: int, c: int) -> bool:
    """Could ``seat`` beat card ``c`` if ``c`` were led now?"""
    lay = st.t.layout
    h = st.hands[seat]
    f = h & lay.suit_masks[lay.suit_of[c]]
    return ((f or h) & lay.beats[c]) != 0
