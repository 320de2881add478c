"""The club database in the console (docs/club.md): the printable standings and the club
list the registration picks names from.

The file is the controller machine's club database: ``$FLOORMAN_CLUB``, else the data
folder's ``club.sqlite``. Read only, through the club's door for the console
(:mod:`controller.club.lookup`).
"""

from __future__ import annotations

import datetime
import logging
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from controller.club import lookup
from controller.console import auth, pages
from controller.console.hub import Hub
from controller.console.i18n import tr

__all__ = ["bans_now", "club_players", "cup_page", "lift_ban", "standings_page", "titles_page"]


class Console(Protocol):
    """What these pages use of :class:`controller.console.app.Console`: a protocol, so this
    module does not import the app that imports it."""

    hub: Hub

    def session(self, request: Request) -> auth.Session | None: ...

    def language(self, request: Request, session: auth.Session | None) -> str: ...

    def page_context(self, lang: str) -> dict[str, Any]: ...

    def render(self, name: str, status: int = 200, **ctx: Any) -> Response: ...

    async def signed_form(self, request: Request) -> tuple[str, dict[str, str]] | Response: ...

log = logging.getLogger("floorman.console")

#: the most names one search answers with
SEARCH_LIMIT = 20


def _path(console: Console) -> str:
    return getattr(console, "club", None) or lookup.default_path()


def standings_page(console: Console) -> Any:
    """``/print/standings[?season=S]``: the season's standings as a printable public list
    (non-members shortened, 000 5.8)."""
    async def handler(request: Request) -> Response:
        s = console.session(request)
        if s is None:
            return RedirectResponse("/login", 303)
        lang = console.language(request, s)
        ctx = console.page_context(lang)
        table, problem = None, None
        try:
            table = lookup.standings_table(_path(console),
                                           request.query_params.get("season") or None)
        except lookup.ClubError as exc:
            problem = lookup.refusal(exc, lang)
        return console.render("print_standings.html", kind="standings",
                              title=tr("standings", lang), table=table, problem=problem,
                              back="/results",
                              printed=pages.printed_at(console.hub.now(), lang), **ctx)
    return handler


def _titles_page(console: Console, template: str, kind: str, title_key: str) -> Any:
    async def handler(request: Request) -> Response:
        s = console.session(request)
        if s is None:
            return RedirectResponse("/login", 303)
        lang = console.language(request, s)
        ctx = console.page_context(lang)
        titles, held, problem = None, None, None
        try:
            titles, held = lookup.season_titles(_path(console),
                                                request.query_params.get("season") or None)
        except lookup.ClubError as exc:
            problem = lookup.refusal(exc, lang)
        now = console.hub.now()
        today = datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()
        over = bool(titles and (titles.final_played or today > titles.table.last))
        return console.render(template, kind=kind, title=tr(title_key, lang), titles=titles,
                              trophies=held, over=over, problem=problem, back="/results",
                              printed=pages.printed_at(now, lang), **ctx)
    return handler


def titles_page(console: Console) -> Any:
    """``/print/titles[?season=S]``: the season's titles (000 8: Meister, Jahressieger,
    Cupsieger, leading while the season runs), the championship list (5.2, 6) and the
    trophies (8.2-8.5), printable."""
    return _titles_page(console, "print_titles.html", "titles", "titles")


def cup_page(console: Console) -> Any:
    """``/print/cup[?season=S]``: the cup's field (000 7.2): the qualified members, those
    in the final by the yearly ranking and those who play the preliminary round."""
    return _titles_page(console, "print_cup.html", "cup", "cup")


def club_players(console: Console) -> Any:
    """``/club/players?q=TEXT``: the club's players matching TEXT (folded, umlauts and
    near spellings too), as JSON ``{"players": [{"name", "member"}…]}``."""
    async def handler(request: Request) -> Response:
        if console.session(request) is None:
            return JSONResponse({"players": []}, 401)
        q = request.query_params.get("q", "").strip()[:80]
        if not q:
            return JSONResponse({"players": []})
        found = lookup.find_players(_path(console), q, SEARCH_LIMIT)
        return JSONResponse({"players": [{"name": p.name, "member": p.member}
                                         for p in found]})
    return handler


# ------------------------------------------------- the registration desk (issue 31)
def _today(console: Console) -> datetime.date:
    return datetime.date.fromtimestamp(console.hub.now())


def bans_now(console: Console) -> list[dict[str, Any]]:
    """The no-shows' bans that hold today (000 2.7), for the players' page."""
    return [{"player": b.player, "since": b.since.isoformat(), "until": b.until.isoformat(),
             "months": b.months, "count": b.count}
            for b in lookup.bans_on(_path(console), _today(console))]


def lift_ban(console: Console) -> Any:
    """``POST /club/lift-ban`` (``player``, ``reason``): the director lifts a no-show ban
    (000 2.7), recorded in the club database with the day and the reason; the answer as
    an action's (``{"ok", "message"|"reason"}``)."""
    async def handler(request: Request) -> Response:
        checked = await console.signed_form(request)
        if isinstance(checked, Response):
            return checked
        lang, form = checked
        name = " ".join((form.get("player") or "").split())
        if not name:
            return JSONResponse({"ok": False, "reason": tr("missing", lang,
                                                           field=tr("player", lang))}, 400)
        try:
            ban = lookup.lift_ban(_path(console), name, form.get("reason") or "",
                                  _today(console))
        except lookup.ClubError as exc:
            log.info("console lift-ban %s: %s", name, exc)
            return JSONResponse({"ok": False, "reason": _ban_reason(str(exc), name, lang)})
        log.info("console lift-ban %s until %s: %s", ban.player, ban.until, form.get("reason"))
        return JSONResponse({"ok": True, "message": tr("ban_lifted", lang, player=ban.player,
                                                       until=ban.until.isoformat())},
                            headers={"Cache-Control": "no-store"})
    return handler


def _ban_reason(text: str, name: str, lang: str) -> str:
    """The club room's one-line refusal in the page's language where it is a known one."""
    if "has no ban" in text:
        return tr("no_ban", lang, player=name)
    if "no club database" in text:
        return tr("no_club", lang)
    if text.startswith("say why"):
        return tr("missing", lang, field=tr("reason", lang))
    return text
