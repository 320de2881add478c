"""The console's routes (Starlette) and :func:`serve` (uvicorn).

Pages are rendered on the server (Jinja2); ``/events`` streams the live parts of a page
as server-sent events whenever the controller publishes; ``/act/<action>`` sends one
director command and answers with the controller's reply. ``static/console.js`` is the
little JavaScript: forms without reloading, the stream, the clock counting down, the bust
dialog and the player search. No build step.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.console import actions, auth, club, guard, pages
from controller.console import requests as player_requests
from controller.console.hub import ANSWER_TIMEOUT, Hub
from controller.console.i18n import LANGUAGES, field_name, lang_of, tr
from controller.engine.results import spreadsheet_cell
from controller.wire import i18n as screen
from controller.wire import wording

log = logging.getLogger("floorman.console")

#: the largest form the console reads (a register form of a big field is a few KiB)
MAX_FORM = 64 * 1024
#: seconds between keep-alive comments on an idle event stream
KEEPALIVE = 15.0
#: open live streams of the players' page at most (a club's field and their friends)
MAX_PUBLIC_STREAMS = 500
#: open live streams of one address at most, signed in or not (a browser holds six
#: connections to a site, so a phone's few tabs fit; issue 27: one client's 510 streams took
#: every other phone's)
STREAMS_PER_ADDRESS = 8
SECURITY_HEADERS = {
    # no inline script or style anywhere: the pages load console.js and console.css only
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; "
                               "form-action 'self'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def _fmt_seconds(value: float | None) -> str:
    return screen.clock(value)


class Console:
    """The console of one tournament: the hub (broker), the sessions and the pages."""

    def __init__(self, hub: Hub, password_hash: str, *,
                 backoff: auth.Backoff | None = None,
                 sessions: auth.Sessions | None = None,
                 limits: guard.Limits | None = None,
                 hosts: Iterable[str] = (),
                 sign_in_key: auth.SignInKey | None = None,
                 requests_file: str | os.PathLike[str] | None = None) -> None:
        self.hub = hub
        self.password_hash = password_hash
        #: the one-time key of the sign-in link ``floorman night`` prints as a QR code
        self.sign_in_key = sign_in_key
        self.backoff = backoff or auth.Backoff()
        self.sessions = sessions or auth.Sessions()
        #: the connections (serve() uses its protocol)
        self.door = guard.Door(limits)
        #: the names a browser may call the console by, besides an address (``Host``)
        self.hosts = own_names(hosts)
        self.public_streams = 0
        #: the players' own registration requests (issue 31): in ``requests_file`` when
        #: given (read back at start), else in memory only
        self.requests = player_requests.Requests(requests_file)
        self.streams_by_address: dict[str, int] = {}
        #: one password check at a time: concurrent tries cost no more CPU than tries in turn
        self._checking = asyncio.Lock()
        self._live: dict[tuple[str, str, int, int], dict[str, str]] = {}
        self.env = Environment(loader=PackageLoader("controller.console", "templates"),
                               autoescape=select_autoescape(["html"]), trim_blocks=True,
                               lstrip_blocks=True)
        self.env.filters["num"] = screen.num
        self.env.filters["money"] = screen.money  # cents, currency, lang (issue 30)
        self.env.filters["clock"] = _fmt_seconds
        self.env.filters["hhmm"] = pages.hhmm
        self.env.filters["move_reason"] = wording.move_reason
        self.env.filters["json"] = lambda v: json.dumps(v, ensure_ascii=False)

    # ------------------------------------------------------------------ helpers
    def session(self, request: Request) -> auth.Session | None:
        return self.sessions.get(request.cookies.get(auth.COOKIE))

    def language(self, request: Request, session: auth.Session | None) -> str:
        if session is not None and session.lang:
            return session.lang
        chosen = request.cookies.get("floorman_lang")
        if chosen in LANGUAGES:
            return chosen
        summary = self.hub.state.get("summary") or {}
        return lang_of(summary.get("language"))

    def render(self, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        lang = ctx.get("lang", "en")
        text = self.env.get_template(name).render(
            t=lambda key, **v: tr(key, lang, **v), **ctx)
        return HTMLResponse(text, status, headers=SECURITY_HEADERS)

    def page_context(self, lang: str) -> dict[str, Any]:
        h = self.hub
        return pages.context(h.state, h.players, h.now(), lang, link_up=h.link_up,
                             controller_online=h.controller_online, history=h.history,
                             desk=h.desk)

    def live(self, page: str, lang: str) -> dict[str, str]:
        """The live parts of ``page`` as HTML, by element id; made once per version of the
        state for every stream of the same page and language (the directors' browsers and
        the players' phones share one rendering)."""
        # the second too: a part drawn with the time left must not be minutes old
        key = (page, lang, self.hub.version, int(self.hub.now()))
        cached = self._live.get(key)
        if cached is None:
            if len(self._live) > 16:
                self._live.clear()
            cached = self._live[key] = self._render_live(page, lang)
        return cached

    def _render_live(self, page: str, lang: str) -> dict[str, str]:
        ctx = self.page_context(lang)
        out = {}
        for element, template in pages.LIVE[page].items():
            out[element] = self.env.get_template(template).render(
                t=lambda key, **v: tr(key, lang, **v), page=page, **ctx)
        return out

    @staticmethod
    def same_origin(request: Request) -> bool:
        """A state change must come from a page of this site: when the browser says where
        the request comes from (``Origin``, every current browser does on POST), it must
        be this host."""
        origin = request.headers.get("origin")
        if origin is None or origin == "null":
            return origin is None
        return urlsplit(origin).netloc == request.headers.get("host")

    @staticmethod
    async def form(request: Request) -> dict[str, str]:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_FORM:
                raise ValueError("form too large")
        return dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))

    async def signed_form(self, request: Request) -> tuple[str, dict[str, str]] | Response:
        """A state change's checks, in their order: a signed-in session (401), a form of
        at most :data:`MAX_FORM` bytes (413), this site's page with the session's CSRF
        token (403). ``(language, form)`` when all hold, else the refusal to send."""
        s = self.session(request)
        lang = self.language(request, s)
        if s is None:
            return JSONResponse({"ok": False, "reason": tr("session_expired", lang)}, 401)
        try:
            form = await self.form(request)
        except ValueError:
            return JSONResponse({"ok": False, "reason": tr("form_too_large", lang)}, 413)
        token = request.headers.get("x-csrf-token") or form.get("csrf")
        if not self.same_origin(request) or not auth.csrf_ok(s, token):
            return JSONResponse({"ok": False, "reason": tr("csrf", lang)}, 403)
        return lang, form

    # ------------------------------------------------------------------- routes
    async def login_page(self, request: Request) -> Response:
        lang = self.language(request, None)
        key = request.query_params.get("key")
        if key is None:
            return self.render("login.html", lang=lang, error=None)
        # the sign-in link of the night's QR code: counted like a password try
        address = request.client.host if request.client else "?"
        wait = self.backoff.attempt(address)
        if wait > 0:
            return self.render("login.html", 429, lang=lang,
                               error=tr("wait_seconds", lang, n=int(wait + 0.999)))
        if self.sign_in_key is None or not self.sign_in_key.use(key):
            self.backoff.failed(address)
            log.warning("console: a used, expired or wrong sign-in code from %s", address)
            return self.render("login.html", 401, lang=lang, error=tr("key_used", lang))
        self.backoff.succeeded(address)
        log.info("console: signed in with the night's sign-in code from %s", address)
        # not a redirect: the camera app opened this link from another site, and a
        # redirect in that same navigation would come to "/" without the SameSite=Strict
        # cookie; the page's own refresh is a navigation of this site
        return self._signed_in(request, HTMLResponse(
            '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/">'
            '<a href="/">Floorman</a>', headers={"Referrer-Policy": "no-referrer"}))

    async def login(self, request: Request) -> Response:
        lang = self.language(request, None)
        if not self.same_origin(request):
            return self.render("login.html", 403, lang=lang, error=tr("csrf", lang))
        address = request.client.host if request.client else "?"
        # the try is counted as a wrong one before the password is checked, in the same
        # step that reads the wait: tries sent at once do not all pass the wait (issue 27)
        wait = self.backoff.attempt(address)
        if wait > 0:
            return self.render("login.html", 429, lang=lang,
                               error=tr("wait_seconds", lang, n=int(wait + 0.999)))
        try:
            form = await self.form(request)
        except ValueError:
            self.backoff.failed(address)
            return Response("form too large", 413)
        async with self._checking:
            ok = await asyncio.to_thread(auth.password_ok, form.get("password", ""),
                                         self.password_hash)
        if not ok:
            self.backoff.failed(address)
            log.warning("console: wrong password from %s", address)
            return self.render("login.html", 401, lang=lang, error=tr("wrong_password", lang))
        self.backoff.succeeded(address)
        return self._signed_in(request, RedirectResponse("/", 303))

    def _signed_in(self, request: Request, response: Response) -> Response:
        s = self.sessions.create()
        response.set_cookie(auth.COOKIE, s.token, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https", path="/")
        return response

    async def logout(self, request: Request) -> Response:
        s = self.session(request)
        form = await self.form(request)
        if s is not None and self.same_origin(request) and auth.csrf_ok(s, form.get("csrf")):
            self.sessions.end(s.token)
        response = RedirectResponse("/login", 303)
        response.delete_cookie(auth.COOKIE, path="/")
        return response

    async def set_language(self, request: Request) -> Response:
        code = request.path_params["code"]
        back = request.query_params.get("next", "/")
        if not back.startswith("/") or back.startswith("//"):
            back = "/"
        response = RedirectResponse(back, 303)
        if code in LANGUAGES:
            s = self.session(request)
            if s is not None:
                s.lang = code
            response.set_cookie("floorman_lang", code, httponly=True, samesite="strict",
                                max_age=365 * 86400, path="/")
        return response

    def _page(self, name: str) -> Callable[[Request], Any]:
        async def handler(request: Request) -> Response:
            s = self.session(request)
            if s is None:
                return RedirectResponse("/login", 303)
            lang = self.language(request, s)
            ctx = self.page_context(lang)
            if name == "players":  # the bans (000 2.7), the players' requests (issue 31)
                ctx = {**ctx, "bans": club.bans_now(self),
                       "requests": list(self.requests.pending.values())}
            return self.render(f"{name}.html", lang=lang, csrf=s.csrf, page=name,
                               path=request.url.path, **{k: v for k, v in ctx.items()
                                                          if k != "lang"})
        return handler

    async def events(self, request: Request) -> Response:
        s = self.session(request)
        page = request.query_params.get("page", "floor")
        if page not in pages.LIVE:
            return Response("no such page", 404)
        # the players' page is public; every other page's parts need a signed-in director
        if s is None and page != "public":
            return Response("sign in first", 401)
        lang = self.language(request, s)
        public = s is None
        address = request.client.host if request.client else "?"
        # counted here, before the answer starts: the stream's first step comes later, and
        # 510 requests at once all passed a count raised there (issue 27)
        if self.streams_by_address.get(address, 0) >= STREAMS_PER_ADDRESS:
            return Response(f"at most {STREAMS_PER_ADDRESS} live pages from one address",
                            429, headers={"Retry-After": "30"})
        if public and self.public_streams >= MAX_PUBLIC_STREAMS:
            return Response("too many open player pages", 503, headers={"Retry-After": "30"})
        self.streams_by_address[address] = self.streams_by_address.get(address, 0) + 1
        if public:
            self.public_streams += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            left = self.streams_by_address.pop(address, 1) - 1
            if left > 0:
                self.streams_by_address[address] = left
            if public:
                self.public_streams -= 1

        async def stream() -> AsyncIterator[str]:
            version = -1
            try:
                while True:
                    now_version = await self.hub.wait(version, KEEPALIVE)
                    if now_version == version:
                        yield ": keep-alive\n\n"
                        continue
                    version = now_version
                    # "sent": this machine's time as it goes out (bench/console.py)
                    data = {"html": self.live(page, lang), "now": self.hub.now(),
                            "sent": time.time()}
                    yield f"event: update\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
            finally:
                release()

        return _Stream(stream(), release, media_type="text/event-stream",
                       headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def public(self, request: Request) -> Response:
        """The players' page: no sign-in, nothing to change, only what the public screens
        show (names as the public topics give them, 000 5.8; nothing that helps in a hand,
        001 §14, 003 23)."""
        lang = self.language(request, self.session(request))
        ctx = self.page_context(lang)
        said = request.query_params.get("request", "")  # what became of a request sent
        return self.render("public.html", lang=lang, csrf=None, page="public",
                           path=request.url.path, request_said=said
                           if said in REQUEST_ANSWERS else "",
                           **{k: v for k, v in ctx.items() if k != "lang"})

    async def ask_to_play(self, request: Request) -> Response:
        """``POST /p/request`` (``name``, ``contact``): a player's own registration request
        from the players' page (no account; issue 31, 000 2.2), kept until the director
        confirms or drops it; back to the page with what became of it."""
        if not self.same_origin(request):
            return Response("a request comes from the players' page", 403)
        try:
            form = await self.form(request)
        except ValueError:
            return RedirectResponse("/p?request=request_bad_name#request", 303)
        address = request.client.host if request.client else "?"
        try:
            ask = self.requests.add(form.get("name", ""), form.get("contact", ""), address,
                                    self.hub.now())
        except player_requests.RequestError as exc:
            log.info("players' page %s: request refused (%s)", address, exc.key)
            return RedirectResponse(f"/p?request={exc.key}#request", 303)
        log.info("players' page %s: request %d of %s", address, ask.id, ask.name)
        return RedirectResponse("/p?request=request_taken#request", 303)

    async def answer_request(self, request: Request) -> Response:
        """``POST /requests/confirm`` or ``/requests/drop`` (``id``; ``guest``): the director
        confirms a player's request (a ``preregister``, 000 2.2) or drops it."""
        if request.path_params["what"] not in ("confirm", "drop"):
            return Response("no such action", 404)
        checked = await self.signed_form(request)
        if isinstance(checked, Response):
            return checked
        lang, form = checked
        ident = form.get("id", "")
        ask = self.requests.take(int(ident)) if ident.isdigit() else None
        if ask is None:
            return JSONResponse({"ok": False, "reason": tr("request_gone", lang)})
        if request.path_params["what"] != "confirm":
            log.info("console: request %d of %s dropped", ask.id, ask.name)
            return JSONResponse({"ok": True, "message": tr("request_dropped", lang,
                                                           name=ask.name)})
        args = {"names": [ask.name], "member": form.get("guest") not in ("on", "1", "true")}
        answer = await self.hub.send("preregister", args)
        if not answer.get("ok"):
            self.requests.put_back(ask)
            reason = (tr("no_answer_command", lang, s=f"{ANSWER_TIMEOUT:.0f}")
                      if answer.get("no_answer") else
                      sentence(wording.reason(answer, lang), answer))
            return JSONResponse({"ok": False, "reason": reason})
        log.info("console: request %d of %s confirmed", ask.id, ask.name)
        return JSONResponse({"ok": True, "message": wording.capital(
            wording.message(answer, lang), answer.get("phrases"))})

    async def printable(self, request: Request) -> Response:
        """A printable page (A4): ``seating`` (the list, and each table by seat), ``cards``
        (a seat card per player: name, table, seat) or ``results``."""
        s = self.session(request)
        if s is None:
            return RedirectResponse("/login", 303)
        kind = request.path_params["kind"]
        if kind not in ("seating", "cards", "results"):
            return Response("no such page", 404)
        lang = self.language(request, s)
        ctx = self.page_context(lang)

        # a sheet on paper outlives the screen: who sits where this moment, not as of the
        # last refresh
        players = await self.hub.players_now()
        if players is None:
            return Response(tr("no_answer", lang), 503, headers={"Retry-After": "5"})
        seated = sorted((p for p in players if p["status"] == "seated"),
                        key=lambda p: screen.sort_key(p["name"]))
        if kind == "cards":  # in the order they are laid out on the tables
            seated.sort(key=lambda p: (p["table"], p["seat"]))
        title = {"seating": tr("seating_list", lang), "cards": tr("seat_cards", lang),
                 "results": tr("results", lang)}[kind]
        if kind == "results":
            ctx["results"] = await self.whole_results()
            if ctx["results"] is None:
                return Response(tr("no_answer", lang), 503, headers={"Retry-After": "5"})
        return self.render(f"print_{kind}.html", kind=kind, title=title, seated=seated,
                           by_table=pages.by_table(players),
                           back="/results" if kind == "results" else "/players",
                           printed=pages.printed_at(self.hub.now(), lang), **ctx)

    async def act(self, request: Request) -> Response:
        wants_json = "application/json" in request.headers.get("accept", "")
        checked = await self.signed_form(request)
        if isinstance(checked, Response):
            return checked
        lang, form = checked
        action = request.path_params["action"]
        try:
            cmd, args = actions.command(action, form)
        except actions.FormError as exc:
            values = {k: field_name(v, lang) if k == "field" else v
                      for k, v in exc.values.items()}
            return JSONResponse({"ok": False, "reason": tr(exc.key, lang, **values)}, 400)
        before = pages.clock_left(self.hub.state.get("clock"), self.hub.now())
        answer = await self.hub.send(cmd, args)
        reply: dict[str, Any] = {"ok": bool(answer.get("ok")), "cmd": cmd}
        if answer.get("ok"):
            reply["message"] = wording.capital(wording.message(answer, lang),
                                               answer.get("phrases"))
            if cmd == "time":
                # the answer comes after the new clock on the same connection: "after" is it
                after = pages.clock_left(self.hub.state.get("clock"), self.hub.now())
                reply["message"] = tr("time_echo", lang, before=screen.clock(before),
                                      after=screen.clock(after))
        elif answer.get("no_answer"):  # the hub's own: no template for the wording
            reply["reason"] = tr("no_answer_command", lang, s=f"{ANSWER_TIMEOUT:.0f}")
        else:
            reply["reason"] = sentence(wording.reason(answer, lang), answer)
        log.info("console %s %s: %s", cmd, args, reply.get("message") or reply.get("reason"))
        if wants_json:
            return JSONResponse(reply, headers={"Cache-Control": "no-store"})
        back = form.get("next", "/")
        return RedirectResponse(back if back.startswith("/") and not back.startswith("//")
                                else "/", 303)

    async def deal(self, request: Request) -> Response:
        """The deal dialog's content (issue 30): ICM and chip chop side by side from the
        controller's ``deal_proposal``, for the amount played for the director typed
        (``?played_for=``, the currency's units; the query's 10 % without it); or why no
        deal can be made now. Nothing changes: the dialog's buttons send ``deal``."""
        from controller.engine.commands import Rejected
        from controller.engine.rules import final_deal

        s = self.session(request)
        if s is None:
            return Response("", 401)
        lang = self.language(request, s)
        answer = await self.hub.send("deal_proposal")
        reason = None
        proposed = answer.get("result") if answer.get("ok") else None
        if proposed is None:
            reason = (tr("no_answer_command", lang, s=f"{ANSWER_TIMEOUT:.0f}")
                      if answer.get("no_answer") else sentence(wording.reason(answer, lang),
                                                               answer))
        typed = (request.query_params.get("played_for") or "").strip()
        if proposed is not None and typed:
            try:
                played = actions.cents(typed, "played_for")
                names = {r["player_id"]: r["name"] for r in proposed["players"]}
                seats = {r["player_id"]: r["seat"] for r in proposed["players"]}
                proposed = final_deal.split(final_deal.table_of(proposed), names, seats,
                                            played_for=played)
            except actions.FormError as exc:
                reason = tr(exc.key, lang, field=field_name("played_for", lang), value=typed)
            except Rejected as exc:
                refused = {"reason": str(exc), "why": exc.as_dict()}
                reason = sentence(wording.reason(refused, lang), refused)
        return self.render("_deal.html", lang=lang, csrf=s.csrf, deal=proposed,
                           reason=reason, typed=typed)

    async def whole_results(self) -> dict[str, Any] | None:
        """Every place, scored: the retained topic's, or the controller's answer while the
        topic has only the last players out (``complete`` false: a festival's field);
        ``None`` when the controller does not answer."""
        results = self.hub.state.get("results") or {"v": 1, "finished": False, "rows": []}
        if results.get("complete", True):
            return results
        answer = await self.hub.send("results")
        return answer["result"] if answer.get("ok") else None

    async def export(self, request: Request) -> Response:
        s = self.session(request)
        if s is None:
            return RedirectResponse("/login", 303)
        results = await self.whole_results()
        if results is None:
            lang = self.language(request, s)
            return Response(tr("no_answer", lang), 503, headers={"Retry-After": "5"})
        kind = request.path_params["kind"]
        lang = self.language(request, s)
        name = export_name((self.hub.state.get("summary") or {}).get("name"),
                           self.hub.now(), tr("results", lang))
        if kind == "json":
            return Response(json.dumps(results, ensure_ascii=False, indent=1),
                            media_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{name}.json"'})
        german = request.query_params.get("sep", ";") == ";"
        bom = request.query_params.get("bom", "1" if german else "0") == "1"
        # the director's file: every name in full (shortened only where the public reads,
        # 000 5.8), asked at this moment like a printout
        players = await self.hub.players_now()
        full = {p["player_id"]: p["name"] for p in players or ()}
        text = results_csv(results["rows"], sep=";" if german else ",", bom=bom,
                           disqualified=results.get("disqualified", []), lang=lang,
                           names=full)
        return Response(text.encode("utf-8"), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})

    async def root(self, request: Request) -> Response:
        return await self._page("floor")(request)


#: what the players' page may say of a request it sent (label keys)
REQUEST_ANSWERS = frozenset({
    "request_taken", "request_no_name", "request_bad_name", "request_no_contact",
    "request_bad_contact", "request_too_many", "request_twice", "request_full"})


class _Stream(StreamingResponse):
    """An event stream that gives its place back however it ends, also when its first step
    never runs (the client went away before the answer started)."""

    def __init__(self, content: AsyncIterator[str], release: Callable[[], None],
                 **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.release = release

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


def own_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a browser may call this console by (``Host``), besides an IP address:
    ``localhost``, this machine's name and NAME.local (mDNS), and ``extra`` (a proxy's
    public name, a DNS name of the club's network: ``--host-name``)."""
    import socket

    name = socket.gethostname().lower()
    names = {"localhost", name, f"{name}.local"}
    names.update(n.strip().lower().rstrip(".") for n in extra if n.strip())
    return frozenset(names)


def host_of(header: str) -> str:
    """``Host``'s name or address without the port or an IPv6 address's brackets."""
    h = header.strip().lower()
    if h.startswith("["):
        return h[1:h.find("]")] if "]" in h else h[1:]
    return h.rpartition(":")[0] if h.count(":") == 1 else h


def is_address(host: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class HostCheck:
    """Refuses a request whose ``Host`` is a name the console does not have (DNS rebinding:
    a page of evil.example whose name now points at the console would sign in with the
    browser's help and read the answers). An address is always right: a page can only be
    that address's own. ASGI middleware, around the whole app (streams too)."""

    def __init__(self, app: Any, names: frozenset[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            raw = dict(scope["headers"]).get(b"host")
            host = host_of(raw.decode("latin-1")) if raw is not None else ""
            if raw is not None and host not in self.names and not is_address(host):
                shown = host[:60]
                response = Response(f"this console is not called {shown!r}: ask for it by its "
                                    "address, or name it with --host-name", 421,
                                    media_type="text/plain")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: the export's columns: key → (English header, German header)
CSV_HEADERS: dict[str, tuple[str, str]] = {
    "place": ("place", "Platz"), "name": ("name", "Name"), "points": ("points", "Punkte"),
    "knockouts": ("knockouts", "Knockouts"), "knockout_points": ("knockout_points", "KO-Punkte"),
    "bounty_hits": ("bounty_hits", "Bounty-Treffer"), "prize": ("prize", "Preisgeld"),
    "member": ("member", "Mitglied"),
    # a tournament for money (issue 30): in cents, as the results give them
    "payout": ("payout", "Auszahlung"), "ticket": ("ticket", "Ticket"),
    "deal": ("deal", "Deal"),  # what a deal at the final table gave (within the payout)
    "bounties": ("bounties", "Kopfgeld"), "lot": ("lot", "gelost"),
}
#: a yes or no cell: key → (English, German)
YES_NO = {True: ("yes", "Ja"), False: ("no", "Nein")}


def results_csv(rows: list[dict[str, Any]], *, sep: str = ";", bom: bool = True,
                disqualified: list[dict[str, Any]] | None = None, lang: str = "en",
                names: dict[int, str] | None = None) -> str:
    """The results as CSV, headers and yes/no in ``lang`` (``Platz``, ``Mitglied``, ``Ja``).
    With ``sep=";"`` (German spreadsheets) points are written with a decimal comma; ``bom``:
    a UTF-8 byte-order mark first, so Excel reads the umlauts. ``names``: the full name of
    each player id (the rows carry the public, shortened ones). A name that would start a
    formula is written as text (``spreadsheet_cell``, issue 27.6). ``disqualified`` players
    (000 3.8) follow the places with ``DQ`` for a place."""
    i = 1 if lang == "de" else 0
    names = names or {}
    columns = list(CSV_HEADERS)  # payout and ticket only where the results have them
    if rows:
        # a tournament for money (issue 30): payout and ticket in cents, as the results give
        # them (the JSON export and floorman simulate say the same)
        columns = [c for c in columns if c in rows[0] or (c in ("ticket", "deal", "lot") and any(
            c in r for r in rows))]
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\r\n")
    w.writerow([CSV_HEADERS[c][i] for c in columns])

    def name(r: dict[str, Any]) -> Any:
        full = names.get(r["player_id"]) if isinstance(r.get("player_id"), int) else None
        return spreadsheet_cell(full or r.get("name", ""))

    for r in rows:
        out = []
        for c in columns:
            v = r.get(c)
            if c == "name":
                out.append(name(r))
                continue
            if isinstance(v, bool):
                v = YES_NO[v][i]
            elif isinstance(v, float):
                v = int(v) if v.is_integer() else (str(v).replace(".", ",") if sep == ";"
                                                   else v)
            out.append("" if v is None else spreadsheet_cell(v))
        w.writerow(out)
    for d in disqualified or []:  # out of the ranking: no place, no points
        w.writerow(["DQ" if c == "place" else name(d) if c == "name" else ""
                    for c in columns])
    return ("\ufeff" if bom else "") + buf.getvalue()


def export_name(tournament: str | None, at: float, what: str) -> str:
    """An export's file name, without its ending: the date, the tournament and what it is
    (``2026-11-27-psc-five-spades-re-buy-add-on-ergebnis``), in letters every system
    keeps (umlauts written out)."""
    day = time.strftime("%Y-%m-%d", time.localtime(at))
    text = f"{tournament or 'floorman'} {what}".lower()
    for umlaut, plain in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(umlaut, plain)
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:80].rstrip("-")
    return f"{day}-{slug}"


def sentence(text: str, answer: dict[str, Any]) -> str:
    """A reason as a sentence on its own line: its first letter a capital ("die Uhr läuft
    schon" → "Die Uhr läuft schon"), unless it begins with a name the controller put in
    (a player called "de Vries" keeps his name)."""
    key = str((answer.get("why") or {}).get("key") or "")
    if not text or not text[0].islower() or key.startswith("{"):
        return text
    return text[0].upper() + text[1:]


def public_url(host: str, port: int) -> str:
    """The players' page as a phone on the club's network reaches it: ``host`` when it is
    an address, else this machine's address on the network its default route leads to (a
    UDP socket's local end: nothing is sent), else its name."""
    import socket

    addr = host
    if host in ("", "0.0.0.0", "::"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, never sent to
                addr = s.getsockname()[0]
        except OSError:
            addr = socket.gethostname()
    if ":" in addr:
        addr = f"[{addr}]"
    return f"http://{addr}:{port}/p"


def make_app(console: Console, *, start_hub: bool = True) -> Starlette:
    """The ASGI app; ``start_hub``: connect the hub to the broker on startup."""
    static = Path(str(files("controller.console") / "static"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # an accept() out of descriptors: one line now and then, not a traceback each
        asyncio.get_running_loop().set_exception_handler(console.door.loop_error)
        if start_hub:
            await console.hub.start()
        try:
            yield
        finally:
            if start_hub:
                await console.hub.stop()

    c = console
    routes = [
        Route("/", c.root),
        Route("/players", c._page("players")),
        Route("/results", c._page("results")),
        Route("/results.{kind:str}", c.export),
        Route("/p", c.public),
        Route("/p/request", c.ask_to_play, methods=["POST"]),
        Route("/requests/{what:str}", c.answer_request, methods=["POST"]),
        # the club database (docs/club.md): before /print/{kind}, which does not know it
        Route("/print/standings", club.standings_page(c)),
        Route("/print/titles", club.titles_page(c)),
        Route("/print/cup", club.cup_page(c)),
        Route("/club/players", club.club_players(c)),
        Route("/club/lift-ban", club.lift_ban(c), methods=["POST"]),
        Route("/print/{kind:str}", c.printable),
        Route("/login", c.login_page, methods=["GET"]),
        Route("/login", c.login, methods=["POST"]),
        Route("/logout", c.logout, methods=["POST"]),
        Route("/lang/{code:str}", c.set_language),
        Route("/events", c.events),
        Route("/act/{action:str}", c.act, methods=["POST"]),
        Route("/deal", c.deal),  # the deal dialog's content (issue 30)
        Mount("/static", StaticFiles(directory=static), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(HostCheck, names=console.hosts)])


def serve(console: Console, host: str, port: int) -> Any:
    """A uvicorn server of the console (not yet running): ``.run()`` serves until
    SIGTERM/SIGINT, or until ``.should_exit`` is set from another thread.

    Its connections go through the console's :class:`~controller.console.guard.Door` (a
    request's head in time, connections per address and in all); ``X-Forwarded-For`` is
    read only from the door's trusted proxies (``--trusted-proxy``), else never."""
    import uvicorn

    door = console.door
    trusted = sorted(door.limits.trusted)
    config = uvicorn.Config(
        make_app(console), host=host, port=port, log_level="warning", access_log=False,
        timeout_graceful_shutdown=1, lifespan="on", http=door.protocol(),
        timeout_keep_alive=guard.KEEP_ALIVE, backlog=guard.BACKLOG,
        # a backstop: the door keeps the connections below it
        limit_concurrency=door.max_connections + guard.BACKLOG,
        h11_max_incomplete_event_size=16 * 1024,
        proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None)
    return uvicorn.Server(config)
