"""The club database in the console (docs/club.md): the printable standings and the club
list the registration picks names from.

The file is the controller machine's club database: ``$FLOORMAN_CLUB``, else the data
folder's ``club.sqlite`` (:func:`controller.club.cli.default_path`). Read only: the
console never changes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from controller.console import pages
from controller.console.i18n import tr

if TYPE_CHECKING:
    from controller.console.app import Console

__all__ = ["club_players", "standings_page"]

#: the most names one search answers with
SEARCH_LIMIT = 20


def _path(console: Console) -> str:
    from controller.club.cli import default_path

    return getattr(console, "club", None) or default_path()


def standings_page(console: Console) -> Any:
    """``/print/standings[?season=S]``: the season's standings as a printable public list
    (non-members shortened, 000 5.8)."""
    async def handler(request: Request) -> Response:
        from controller.club.db import ClubError, open_club
        from controller.club.standings import standings

        s = console.session(request)
        if s is None:
            return RedirectResponse("/login", 303)
        lang = console.language(request, s)
        ctx = console.page_context(lang)
        table, problem = None, None
        try:
            db = open_club(_path(console), create=False, readonly=True)
            try:
                table = standings(db, request.query_params.get("season") or None,
                                  public=True)
            finally:
                db.close()
        except ClubError as exc:
            problem = str(exc)
        return console.render("print_standings.html", kind="standings",
                              title=tr("standings", lang), table=table, problem=problem,
                              back="/results", printed=pages.hhmm(console.hub.now()), **ctx)
    return handler


def club_players(console: Console) -> Any:
    """``/club/players?q=TEXT``: the club's players matching TEXT (folded, umlauts and
    near spellings too), as JSON ``{"players": [{"name", "member"}…]}``."""
    async def handler(request: Request) -> Response:
        from controller.club import players
        from controller.club.db import ClubError, open_club

        if console.session(request) is None:
            return JSONResponse({"players": []}, 401)
        q = request.query_params.get("q", "").strip()[:80]
        if not q:
            return JSONResponse({"players": []})
        try:
            db = open_club(_path(console), create=False, readonly=True)
        except ClubError:
            return JSONResponse({"players": []})
        try:
            found = players.search(db, q, SEARCH_LIMIT)
        finally:
            db.close()
        return JSONResponse({"players": [{"name": p.name, "member": p.member}
                                         for p in found]})
    return handler
