"""What the floor model test (tests/engine/test_floor_model.py) plays on and checks with.

``VARIANTS``: every shipped preset and sample tournament (the bounty and mystery-bounty
samples among them), and the variants a club may set (rebuys, re-entries, 6-max,
hand-for-hand at the money, 10-seat tables, the cross-table rule and the clock of
hand-for-hand, a balancing tolerance of 2), each a function that makes its settings.

``publish``: every view the controller publishes and every query it answers, made as the
service makes them (controller/service/core.py ``state_messages``, ``query``, the answer's
words), serialised as they go on the wire.

``check_ranking``: the places and points of the whole field (a permutation with no gaps,
"1, 1, 3" for shared places), and the places of the busts the floor reported against what
it did (:class:`BustNote`): the order of elimination between hands, the stacks within one,
a shared place within one hand-for-hand hand.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from controller.config import ConfigError, load_tournament, load_tournament_text
from controller.console import pages
from controller.engine import history
from controller.engine.rules import bounties, final_deal, rounds
from controller.engine.rules.prize_pool import prize_pool
from controller.engine.settings import TournamentSettings, fee_of
from controller.engine.tournament import Rejected, Tournament
from controller.service import views
from controller.wire import protocol

ROOT = Path(__file__).resolve().parents[2]
#: the director's history query shows this many commands (controller/service/core.py)
HISTORY = 30


def _sample(name: str) -> Callable[[], TournamentSettings]:
    return lambda: load_tournament(ROOT / "config" / "tournaments" / f"{name}.yaml")


#: for a preset without a structure of its own (004 has none): ten 15-minute levels
STRUCTURE = "structure:\n" + "".join(f"  - {{blinds: {b}/{2 * b}, minutes: 15}}\n"
                                      for b in (50, 100, 150, 200, 300, 400, 600, 800,
                                                1000, 1500))


def _preset(name: str) -> Callable[[], TournamentSettings]:
    """The preset as a tournament file that names only it (and what it leaves open)."""
    def make() -> TournamentSettings:
        text = f"name: T\npreset: {name}\nstart_stack: 20000\n"
        try:
            return load_tournament_text(text, "t.yaml")
        except ConfigError:
            return load_tournament_text(text + STRUCTURE, "t.yaml")
    return make


def _variant(base: str, **change: Any) -> Callable[[], TournamentSettings]:
    def make() -> TournamentSettings:
        s = load_tournament(ROOT / "config" / "tournaments" / f"{base}.yaml")
        parts = {k: dataclasses.replace(getattr(s, k), **v) if isinstance(v, dict) else v
                 for k, v in change.items()}
        return dataclasses.replace(s, **parts)
    return make


SAMPLES = sorted(p.stem for p in (ROOT / "config" / "tournaments").glob("*.yaml"))
PRESETS = sorted(p.stem for p in (ROOT / "config" / "clubs").glob("*.yaml"))

VARIANTS: dict[str, Callable[[], TournamentSettings]] = {
    **{f"sample:{n}": _sample(n) for n in SAMPLES},
    **{f"preset:{n}": _preset(n) for n in PRESETS},
    "rebuy": _variant("psc-rebuy-evening", entries={"rebuys": 2, "rebuy_until_level": 6}),
    "reentry": _variant("venue-faq-main-event", entries={"reentries": 2,
                                                         "reentry_until_level": 8}),
    "6max": _variant("sample", players_per_table=6, table_seats=6, final_table_size=6),
    "money": _variant("venue-faq-main-event", points={"places": 10}),
    "money-share": _variant("venue-faq-turbo-6max", points={"places": "40%"}),
    "money-stack": _variant("floor-sheet-evening", points={"places": 8},
                            hand_for_hand={"cross_table_busts": "stack", "clock": "deduct"}),
    "money-runs": _variant("sample", points={"places": 11}, hand_for_hand={"clock": "runs"}),
    "10-seat": _variant("sample", players_per_table=10, table_seats=10, final_table_size=10),
    "tolerance-2": _variant("sample", balancing={"tolerance": 2}),
    # 003 12 on a tournament that balances and breaks tables (issue 31.7)
    "blinds-sit-out": _variant("sample", balancing={"blinds_sit_out": True}),
}


# ------------------------------------------------------------------ money nights (issue 30)
def _money_file(base: str, money: dict[str, Any], **top: Any
                ) -> Callable[[], TournamentSettings]:
    """``base``'s tournament file with ``money`` (and top-level sections) changed, read as
    a file is read (amounts in the currency's units, a fee in percent)."""
    def make() -> TournamentSettings:
        import yaml

        path = ROOT / "config" / "tournaments" / f"{base}.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["money"] = {**(data.get("money") or {}), **money}
        for k, v in top.items():
            data[k] = {**(data.get(k) or {}), **v} if isinstance(v, dict) else v
        return load_tournament_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                                    path.name)
    return make


#: the money samples (sample:venue-faq-prize-pool, -satellite, -bounty) play as they ship;
#: these make the money rules meet more often in a short night
MONEY_VARIANTS: dict[str, Callable[[], TournamentSettings]] = {
    # fees in percent on the buy-in and the rebuys, a flat curve, paid to the cent
    "money-rebuy-fees": _money_file("psc-rebuy-evening", {
        "currency": "EUR", "buy_in": 20, "fee": "10%", "rebuy": 15, "rebuy_fee": "5%",
        "rounding": 0.01, "payouts": "flat", "places": 4}),
    # a bounty night whose pool is final early (deals), under a guarantee (an overlay),
    # a top-heavy curve
    "money-pko-deal": _money_file("venue-faq-bounty", {
        "guarantee": 1500, "payouts": "top_heavy", "places": 5},
        entries={"late_registration_levels": 1, "reentry_until_level": 1}),
    # a 30 € ticket for every three 10 € buy-ins: tickets and a cash place in a short
    # night, shared places at the bubble drawn by lot
    "satellite-lot": _money_file("venue-faq-satellite", {"satellite": 30}),
    # the same at 6-max tables: the bubble comes while two or three tables play, so two
    # out in one hand-for-hand hand at two tables meet the satellite's end (002 b)
    "satellite-6max": _money_file("venue-faq-satellite", {"satellite": 30},
                                  players_per_table=6, table_seats=6, final_table_size=6),
}
VARIANTS.update(MONEY_VARIANTS)


@cache
def settings_of(variant: str) -> TournamentSettings:
    return VARIANTS[variant]()


# ------------------------------------------------------------------------- state
def digest(t: Tournament) -> tuple[bytes, Tournament]:
    """The state as bytes, quickly (a pickle without the log and the kept states), and the
    tournament: :func:`unchanged` compares the fingerprint only when the bytes differ."""
    return _pickle(t), t


def _pickle(t: Tournament) -> bytes:
    return pickle.dumps({k: v for k, v in t.__dict__.items()
                         if k not in ("log", "_kept", "undo_ready", "undone_as", "_chain")})


def unchanged(t: Tournament, before: tuple[bytes, Tournament]) -> bool:
    """``t`` is in the state of ``before`` (a refused command changes nothing)."""
    if _pickle(t) == before[0]:
        return True
    old = pickle.loads(before[0])  # noqa: S301 - our own bytes
    copy = Tournament.__new__(Tournament)
    copy.__dict__.update(old)
    return copy.fingerprint() == t.fingerprint()


def same(a: Tournament, b: Tournament) -> bool:
    """Two tournaments in the same state (:meth:`Tournament.fingerprint`), the bytes first."""
    return _pickle(a) == _pickle(b) or a.fingerprint() == b.fingerprint()


# ------------------------------------------------------------------------- views
def publish(t: Tournament, now: float, events: list[dict[str, Any]] | None = None
            ) -> dict[str, Any]:
    """Every retained view (``state_messages``), every query's answer and the words of the
    command's ``events``, as the service makes them; each must go on the wire."""
    plan = t.plan()
    pending = t.pending_moves()
    state: dict[str, Any] = {}
    for n in sorted(set(t.tables) | set(t.broken)):
        state[f"table/{n}"] = views.table_view(t, n, plan=plan, pending=pending, now=now)
    state["clock"] = views.clock_view(t, now)
    state["moves"] = views.moves_view(t, plan=plan)
    state["results"] = views.results_view(t)
    state["structure"] = views.structure_view(t)
    state["announcement"] = views.announcement_view(t)
    state["summary"] = views.summary_view(t)
    queries = {
        "results": views.results_view(t, whole=True),
        "players": views.players_view(t),
        "moves": views.moves_view(t),
        "history": {"v": views.SCHEMA, "commands": history.recent(t, HISTORY)},
    }
    for data in (*state.values(), *queries.values()):
        protocol.dumps(data)
    seating = pages.seating(state)
    if events:
        said = history.said(t, events, now)
        history.line(said)
        for p in said:
            p.as_dict()
    return {"state": state, "queries": queries, "seating": seating}


def check_seating(t: Tournament, shown: dict[str, Any]) -> None:
    """The seating the console and the wall show is the engine's: every real player in a
    seat once, where the engine has them."""
    seated = sorted((p.table, p.seat) for p in t.players.values()
                    if p.table is not None and not p.ghost and not p.out)
    shows = sorted((r["table"], r["seat"]) for r in shown["seating"])
    assert shows == seated, f"the seating shown {shows} is not the engine's {seated}"
    players = shown["queries"]["players"]["players"]
    listed = sum(1 for r in players if r["status"] == "seated")
    assert listed == len(seated), f"the players' list has {listed} seated, the engine {len(seated)}"


# ------------------------------------------------------------------------ places
@dataclass(frozen=True)
class BustNote:
    """A bust as the floor reported it: ``group`` its command's first event, ``token`` the
    hand as the floor played it (a new hand, the hand of the table's bust before
    (``same_hand``), the hand-for-hand hand; ``None``: not known to the floor, not
    compared), ``stack`` the stack the bust was ranked with, ``order`` the report's."""

    group: int
    player: int
    table: int
    token: tuple[Any, ...] | None
    stack: int | None
    order: int


def comparable(t: Tournament) -> bool:
    """The places are one ranking of the busts (not a play day, a multi-round final, nor
    play the clock's counted end)."""
    if t.settings.play_day.enabled or rounds.independent(t):
        return False
    if t.settings.mode.kind in rounds.ROUND_MODES and (t.finished or t.rounds.number > 1):
        return False
    return t.drawn


def check_ranking(t: Tournament, notes: list[BustNote], undone: set[int],
                  rows: list[Any] | None) -> None:
    """Places and points of the field, and the places of the floor's busts."""
    if not comparable(t):
        return
    places = t.places()
    ranked = sorted(places.values())
    ahead = 0 if t.finished else t.remaining
    for i, place in enumerate(ranked):
        slot = ahead + i + 1
        # "1, 1, 3": a place is its slot, or shared with the one before it
        assert place == slot or (i and place == ranked[i - 1]), (
            f"the places {ranked} with {ahead} in have a gap or a wrong share at {slot}")
    real = t.real_players()
    assert len(places) + ahead + len(t.disqualified) == real, (
        f"{len(places)} placed + {ahead} in + {len(t.disqualified)} disqualified are not the "
        f"{real} players")
    if rows is not None:
        scored = {r.player_id: r.place for r in rows}
        assert scored == places, f"the results' places {scored} are not the places {places}"
        systems_by_place = sorted(rows, key=lambda r: r.place)
        for a, b in zip(systems_by_place, systems_by_place[1:], strict=False):
            if a.place == b.place:
                assert a.points == b.points, f"a shared place with different points: {a} {b}"
            else:
                assert a.points >= b.points, f"a better place with fewer points: {a} {b}"
    _check_notes(t, places, notes, undone)


def _check_notes(t: Tournament, places: dict[int, int], notes: list[BustNote],
                 undone: set[int]) -> None:
    kept = [n for n in notes if n.group not in undone]
    # a hand is placed where its first report was (the group opens there, 000 9.5)
    opened: dict[tuple[Any, ...], int] = {}
    for n in kept:
        if n.token is not None:
            opened.setdefault(n.token, n.order)
    latest: dict[int, BustNote] = {}
    for n in kept:
        latest[n.player] = n
    live = [n for pid, n in latest.items()
            if pid in places and t.players[pid].out and not t.players[pid].removed
            and n.token is not None]
    cross = t.settings.hand_for_hand.cross_table_busts
    for a in live:
        for b in live:
            if a.order >= b.order:
                continue
            pa, pb = places[a.player], places[b.player]
            if a.token != b.token:
                # different hands: the later out finishes better
                if opened[a.token] < opened[b.token]:
                    assert pb < pa, f"a later hand ranked below an earlier one: {a} {pa}, {b} {pb}"
                continue
            # one hand: its busts ranked by stack where all are known, else the later report
            scope = [n for n in live if n.token == a.token
                     and (a.table == n.table or cross == "stack"
                          or len({m.table for m in live if m.token == a.token}) == 1)]
            if a not in scope or b not in scope:
                continue
            if all(n.stack is not None for n in scope):
                assert a.stack is not None and b.stack is not None, (a, b)
                if a.stack == b.stack:
                    assert pa == pb, f"equal stacks of one hand not sharing: {a} {b}"
                elif a.stack > b.stack:
                    assert pa < pb, f"the bigger stack ranked lower: {a} {pa}, {b} {pb}"
                else:
                    assert pb < pa, f"the bigger stack ranked lower: {a} {pa}, {b} {pb}"
            else:
                assert pb < pa, f"one hand without stacks: the later report first {a} {b}"
    # one hand-for-hand hand, one bust at each of its tables: they share the place (002 b)
    if cross == "share":
        hands: dict[tuple[Any, ...], list[BustNote]] = {}
        for n in live:
            if n.token is not None and n.token[0] == "hfh":
                hands.setdefault(n.token, []).append(n)
        for group in hands.values():
            tables = [n.table for n in group]
            if len(tables) > 1 and len(set(tables)) == len(tables):
                assert len({places[n.player] for n in group}) == 1, (
                    f"one hand-for-hand hand's busts at different tables not sharing (002 b): "
                    f"{[(n, places[n.player]) for n in group]}")


# ------------------------------------------------------------------ money (issue 30)
def money_taken_in(t: Tournament) -> tuple[int, int, int]:
    """What the players paid, the fees, and the bounties, counted from the players as the
    floor sees them (every real player's buy-in, re-entries and rebuys), not from the
    pool's own arithmetic."""
    money = t.settings.money
    assert money is not None
    reentry = money.buy_in if money.reentry is None else money.reentry
    rebuy = money.rebuy or 0
    paid = fees = heads = 0
    for p in t.players.values():
        if p.ghost:
            continue
        paid += money.buy_in + (p.entries - 1) * reentry + p.rebuys * rebuy
        fees += (fee_of(money.fee, money.buy_in) + (p.entries - 1) * fee_of(money.fee, reentry)
                 + p.rebuys * fee_of(money.rebuy_fee, rebuy))
        heads += (p.entries + p.rebuys) * money.bounty
    return paid, fees, heads


def check_money(t: Tournament, rows: list[Any] | None, summary: dict[str, Any]) -> None:
    """The money of the night, at every step: nothing of it for points only; the pool,
    the fees and the bounties are the money taken in; the payouts add up to the pool at
    the end (with a deal, or a satellite's tickets and cash); every bounty cent is on a
    head, won or held; no payout to a ghost; a dealt player takes their deal at least."""
    money = t.settings.money
    if money is None:
        assert "prize_pool" not in summary, "a points-only night shows a prize pool"
        for r in rows or ():
            assert (r.payout, r.ticket, r.deal, r.bounties, r.lot) == (None,) * 5, (
                f"a points-only night shows money in its results: {r}")
        assert t.deal is None, "a deal in a points-only night"
        try:
            final_deal.proposal(t)
        except Rejected:
            return
        raise AssertionError("a deal proposed in a points-only night")
    pool = prize_pool(t)
    assert pool is not None
    paid, fees, heads = money_taken_in(t)
    assert (pool.paid_in, pool.fees, pool.bounties) == (paid, fees, heads), (
        f"the pool's paid in/fees/bounties {pool.paid_in}/{pool.fees}/{pool.bounties} are "
        f"not the money taken in {paid}/{fees}/{heads}")
    assert pool.pool - pool.overlay + pool.fees + pool.bounties == paid, (
        f"pool {pool.pool} - overlay {pool.overlay} + fees + bounties is not {paid} paid in")
    assert pool.overlay >= 0 and pool.pool >= money.guarantee, pool
    if pool.payouts:
        assert sum(pool.payouts) == pool.pool, f"the places {pool.payouts} are not the pool"
        assert list(pool.payouts) == sorted(pool.payouts, reverse=True), pool.payouts
    shown = summary.get("prize_pool")
    assert shown is not None and shown["pool"] == pool.pool, f"the summary shows {shown}"
    # every bounty cent on a head, won in cash, or held for the winner
    assert bounties.accounted(t) == pool.bounties, (
        f"{bounties.accounted(t)} bounty cents accounted of {pool.bounties} paid in")
    for p in t.players.values():
        assert p.bounty >= 0 and p.bounty_won >= 0, p
        if p.out or t.finished:
            assert p.bounty == 0, f"{p.name} is out with a bounty {p.bounty} on their head"
        if p.ghost:
            assert p.bounty == p.bounty_won == 0, f"a ghost seat with a bounty: {p}"
    if t.finished:
        assert t.bounty_unclaimed == 0, "the end left a bounty held"
    _check_deal(t)
    if rows is None:
        return
    for r in rows:
        p = t.players.get(r.player_id)
        assert p is not None and not p.ghost, f"a result row of a ghost seat: {r}"
        assert r.payout is not None and r.payout >= 0, r
        assert money.bounty or r.bounties is None, r
    paid_out = sum(r.payout for r in rows)
    end = t.finished and comparable(t)
    # the places somebody holds: disqualified players (000 3.8) may leave fewer players
    # placed than places paid, and nobody takes those places' amounts
    # (test_floor_model.py test_disqualified_players_leave_no_paid_place_unpaid, xfail)
    held = sum(pool.payouts[:len(rows)])
    if pool.ticket is not None:
        tickets = [r for r in rows if r.ticket is not None]
        assert all(r.ticket == pool.ticket and r.payout == 0 for r in tickets), tickets
        assert len(tickets) <= pool.tickets, f"{len(tickets)} tickets of {pool.tickets}"
        total = len(tickets) * pool.ticket + paid_out
        if end:
            assert len(tickets) == min(pool.tickets, len(rows)) and total == held, (
                f"the satellite's end pays {len(tickets)} tickets and {paid_out} cash, not "
                f"the pool {pool.pool} ({pool.tickets} tickets; {held} of places held)")
    else:
        assert paid_out <= pool.pool, f"{paid_out} paid out of a pool of {pool.pool}"
        if end:
            assert paid_out == held, (
                f"the payouts add up to {paid_out}, not the pool {pool.pool} ({held} of "
                f"the places held): "
                f"{[(r.place, r.payout) for r in rows]}")
    if t.deal is not None:
        dealt = {pid: cents for pid, _, cents in t.deal.shares}
        for r in rows:
            if r.player_id in dealt:
                assert r.deal == dealt[r.player_id], f"the row's deal is not the deal's: {r}"
                assert r.payout >= r.deal, f"a dealt player paid less than the deal: {r}"
            else:
                assert r.deal is None, f"a deal for a player not in it: {r}"


def _check_deal(t: Tournament) -> None:
    """A deal stands among the players left (or placed since), adds up to the money open
    less the part played for, and gives nothing to a ghost or a player out before it."""
    d = t.deal
    if d is None:
        return
    pids = [pid for pid, _, _ in d.shares]
    assert len(set(pids)) == len(pids), d
    assert sum(c for _, _, c in d.shares) + d.played_for == d.open, d
    for pid in pids:
        assert not t.players[pid].ghost, f"a ghost in the deal: {d}"
    left = {p.id for p in t.players.values() if not p.out and not p.ghost}
    assert left <= set(pids), f"players left {left} who are not in the deal {pids}"
