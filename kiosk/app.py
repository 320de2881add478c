"""The kiosk's main loop: one pygame screen, one :class:`~kiosk.render.Renderer`, one
:class:`~kiosk.link.Link`, and (at a table) the button box.

Threads: paho's network thread (via ``Link.notify``) and gpiozero's pin thread
(via :class:`~kiosk.buttons.ButtonBox`) only put items into :attr:`KioskApp.inbox`;
everything else (the button logic, the state, drawing, sounds) happens in the
main thread, in :meth:`KioskApp.step`.

How the loop sleeps: until the earliest of the renderer's
``next_change(view)`` (the clock's next visible second, a feedback message
disappearing, the wall's next seating page; at most 1 s), a hold's next
progress-bar frame (30 fps while a button is held), a debounce window closing
or a hold completing, a time call's next tick, or an item in the inbox. Two
ways, chosen by the kiosk file's ``input_poll_ms``:

- ``input_poll_ms > 0`` (default 50): it blocks on the inbox queue, so GPIO and
  network events wake it at once, and looks at pygame's own events (keys,
  window) at least every ``input_poll_ms``. Idle: 20 short wake-ups a second.
- ``input_poll_ms: 0``: it sleeps in ``pygame.event.wait(timeout)``; the
  threads wake it with a posted event. Keys arrive at once, but SDL's wait is a
  poll loop that wakes every millisecond inside (~1000 wake-ups a second, idle).

It draws only when something changed or the renderer said the picture changes,
and updates only the dirty rectangles the renderer returns. Two exceptions to the
sleeping: while a warm-up is left (kiosk/warmup.py: at the start, after a new size or
language) it lays out one of the screen's moments off the screen in each step instead
of sleeping, whatever arrives being drawn first; and when the state a press changed
arrives without the press's answer, it waits up to :data:`ANSWER_GRACE` for the answer
that follows it, so that one frame shows both.
"""

from __future__ import annotations

import gc
import logging
import math
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from controller.engine.commands import MAX_TABLES
from controller.engine.settings import BrokerSettings
from controller.wire import wording
from controller.wire.discovery import browse
from controller.wire.mqtt import Broker
from kiosk.buttons import ButtonBox, Outcome, TableControls
from kiosk.config import KioskConfig
from kiosk.join import Finder
from kiosk.link import Link
from kiosk.problems import line as problem_line
from kiosk.sound import Cues, Sounds
from kiosk.speech import Sayings, Speaker
from kiosk.view import Feedback, Problem, Role, ScreenView, clock_now

log = logging.getLogger(__name__)

__all__ = ["KioskApp", "main", "parse_size"]

#: longest sleep, whatever the renderer says (s)
MAX_WAIT = 1.0
#: frame interval while a hold's progress bar fills (s)
HOLD_FRAME = 1 / 30
#: shortest interval between two frames the renderer asks for (s)
MIN_FRAME = 1 / 60
#: window size when leaving fullscreen without --windowed
DEFAULT_WINDOW = (1280, 720)
#: how long a frame waits for a press's answer when the state the press changed came
#: without it (s): the controller publishes that state and then the answer, one right
#: after the other (controller/service/core.py), and one frame with both is one layout
#: instead of two in a row — a whole layout less in a press, ~10 ms on a Pi 4
ANSWER_GRACE = 0.004
#: the interpreter's thread switch interval in a kiosk (s; Python's default is 0.005)
SWITCH_INTERVAL = 0.0005

#: exit status when the screen cannot be opened (EX_TEMPFAIL: retried under systemd; a
#: bad kiosk file exits 1, kiosk-start's wrong instance 2, and those are not retried)
EXIT_NO_SCREEN = 75

#: pygame key → dealer action (the box's buttons on a keyboard)
KEYS = {"left": "seat_prev", "right": "seat_next", "b": "bust", "t": "time",
        "h": "hand_done", "return": "hand_done", "enter": "hand_done", "u": "undo"}

#: the texts the loop itself writes into Feedback: key -> (English, German)
TEXTS: dict[str, tuple[str, str]] = {
    "bust": ("Bust: seat {seat}", "Ausgeschieden: Platz {seat}"),
    "time": ("Time call", "Zeit"),
    "time_cancel": ("Cancel time call", "Zeit abbrechen"),
    "hand_done": ("Hand done", "Hand fertig"),
    "seated": ("Seated", "Platz genommen"),
    "undo": ("Undo", "Rückgängig"),
    "sent": ("{what}: sent …", "{what}: gesendet …"),
    "queued": ("{what}: offline, will be sent", "{what}: offline, wird gesendet"),
    "accepted": ("accepted", "angenommen"),
    "rejected": ("rejected: {reason}", "abgelehnt: {reason}"),
    "no_seat": ("Select a seat first", "Erst einen Platz wählen"),
    "chip_race": ("Chip race", "Chip Race"),
    "race_empty": ("Chip race: enter the leftover chips first (◀ ▶ seat, Time +1)",
                   "Chip Race: erst die Rest-Chips eingeben (◀ ▶ Platz, Zeit +1)"),
    "race_no_chips": ("Give the seat its leftover chips first (Time +1)",
                      "Erst die Rest-Chips des Platzes eingeben (Zeit +1)"),
    "no_players": ("No players at this table", "Keine Spieler an diesem Tisch"),
    # a short tap on a hold button
    "hold_bust": ("Hold to bust", "Zum Ausscheiden halten"),
    "hold_undo": ("Hold to undo", "Zum Rückgängigmachen halten"),
    # a bust held back for an answer (kiosk.buttons): the same hand as the bust before?
    "ask_same_hand": ("Seat {seat}: same hand as {names}? Hold Bust = yes · Hand done = new hand",
                      "Platz {seat}: dieselbe Hand wie {names}? Bust halten = ja · "
                      "Hand fertig = neue Hand"),
    "ask_incoming": ("Seat {seat}: {name} is on the way from table {table}, seat {from_seat}. "
                     "Out all the same? Hold Bust again",
                     "Platz {seat}: {name} kommt erst von Tisch {table}, Platz {from_seat}. "
                     "Trotzdem ausgeschieden? Bust nochmals halten"),
    "bust_dropped": ("Bust not sent", "Bust nicht gesendet"),
    "hand_done_due": ("No hand done for a while: press Hand done after every hand",
                      "Lange kein Hand fertig: nach jeder Hand Hand fertig drücken"),
}


def text(key: str, lang: str, **values: Any) -> str:
    en, de = TEXTS.get(key, (key, key))
    return (de if lang == "de" else en).format(**values)


def parse_size(value: str) -> tuple[int, int]:
    """``"800x480"`` → ``(800, 480)``."""
    w, sep, h = value.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or int(w) < 64 or int(h) < 64:
        raise ValueError(f"window size must be WIDTHxHEIGHT like 800x480, got {value!r}")
    return int(w), int(h)


class KioskApp:
    """A table screen (``role="table"``, ``table=N``) or a wall screen (``role="wall"``).

    ``size``: window size, ``None`` for fullscreen (``config.fullscreen``; a window
    of :data:`DEFAULT_WINDOW` if that is false). ``headless``: SDL's dummy video and
    audio drivers (tests, measurements). ``pin_factory``: gpiozero's (tests pass a
    ``MockFactory``; ``None``: gpiozero's default, and no box if there is no GPIO).
    ``renderer_factory(size, language)``: default :class:`kiosk.render.Renderer`.

    :meth:`start` connects; :meth:`step` handles what arrived and draws one
    frame; :meth:`run` steps until Esc, the window closes or SIGTERM; :meth:`close`.
    """

    def __init__(self, config: KioskConfig, role: Role = "table", table: int | None = None,
                 size: tuple[int, int] | None = None, broker: Broker | None = None,
                 headless: bool = False, *, pin_factory: Any = None,
                 renderer_factory: Callable[..., Any] | None = None,
                 clock: Callable[[], float] = time.monotonic, join: str | None = None,
                 look: Callable[[float], list[Any]] | None = None) -> None:
        if role not in ("table", "wall"):
            raise ValueError(f"role must be table or wall, got {role!r}")
        if role == "table" and (table is None or not 1 <= table <= MAX_TABLES):
            raise ValueError(f"a table screen needs a table number from 1 to {MAX_TABLES}, "
                             f"got {table!r}")
        if role == "wall":
            table = None
        self.config = config
        self.role = role
        self.table = table
        self.clock = clock
        self.headless = headless
        self.running = True
        self._started = False
        self.inbox: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self.poll = config.input_poll_ms / 1000
        self._wake_posted = threading.Event()

        # pygame: only display and font; pygame.init() would also open the audio device
        if headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.pg = pygame
        pygame.display.init()
        pygame.font.init()
        self.WAKE = pygame.event.custom_type()
        self.fullscreen = size is None and config.fullscreen
        self.window_size = size or DEFAULT_WINDOW
        self.screen = self._set_mode()
        caption = f"Floorman — table {table}" if table else "Floorman — wall"
        pygame.display.set_caption(caption)
        pygame.event.set_blocked(None)
        pygame.event.set_allowed([pygame.QUIT, pygame.KEYDOWN, pygame.KEYUP, pygame.WINDOWEXPOSED,
                                  pygame.WINDOWFOCUSLOST, pygame.VIDEOEXPOSE, self.WAKE])

        # state, owned by the main thread (paho's thread writes link.state; we copy)
        self.state: dict[str, dict[str, Any]] = {}
        self.language: str = config.language or "en"
        self.view = ScreenView(role=role, table=table, state=self.state, language=self.language)
        self._renderer_factory = renderer_factory
        self.renderer = self._make_renderer()
        self.frames = 0  #: frames that changed pixels
        self.last_rects: list[Any] = []
        self._dirty = True
        self._full = True  # the next frame shows the whole surface (new window/renderer)
        self._due = 0.0  # next time step() must look at the clocks
        self._draw_due = 0.0
        self._cue_due = math.inf
        self._pending: dict[str, Outcome] = {}  # our presses without an answer
        self._last_cid: str | None = None
        self._question: Feedback | None = None  # stays on the screen while it is open
        self._hand_done_due = False
        self._answer_due: float | None = None  # the state of a press came: its answer next
        #: the moments still to lay out off the screen (kiosk/warmup.py), None: warm
        self._warm: Iterator[ScreenView] | None = None
        self.warm_slices = 0  #: moments laid out off the screen so far
        self.warm_done: float | None = None  #: clock() when the last warm-up ended

        #: ``broker: auto`` (and no broker given): the night is found on the network and
        #: joined (kiosk/join.py); until then the link is one that never connects
        self.finder: Finder | None = None
        if broker is None and config.auto_broker:
            self.finder = Finder(role, table, join, self._notify, look=look or browse)
            broker = Broker(host="", port=1883)
            self.view.problem = Problem("looking", "DNS-SD _floorman._tcp")
        elif broker is None:
            broker = Broker.from_env(None, None, settings_of(config))
        self.link = Link(broker, table=table, notify=self._notify)
        self._said: Problem | None = None
        self.sounds = Sounds(config.sounds, clock=clock)
        self.cues = Cues()
        # the wall speaks (optional: speech: true and espeak-ng); a table screen never
        self.speaker = Speaker(config.speech and role == "wall")
        self.sayings = Sayings()
        self.controls: TableControls | None = None
        self.box: ButtonBox | None = None
        if role == "table":
            self.controls = TableControls(config.buttons, self._send, in_break=self._in_break)
            if config.buttons.pins:
                try:
                    self.box = ButtonBox(config.buttons, self._edge, clock=clock,
                                         pin_factory=pin_factory)
                except Exception as exc:  # noqa: BLE001 - no GPIO here: keys only
                    log.warning("no button box (%s: %s); keyboard only",
                                type(exc).__name__, exc)

    # ------------------------------------------------------------------ display
    def _set_mode(self) -> Any:
        pg = self.pg
        if self.fullscreen:
            screen = pg.display.set_mode((0, 0), pg.FULLSCREEN)
            pg.mouse.set_visible(False)
        else:
            screen = pg.display.set_mode(self.window_size)
            if screen.get_size() != tuple(self.window_size):
                # SDL leaves fullscreen at the fullscreen size; the second call resizes
                screen = pg.display.set_mode(self.window_size)
            pg.mouse.set_visible(True)
        return screen

    def _make_renderer(self) -> Any:
        factory = self._renderer_factory
        if factory is None:
            from kiosk.render import Renderer

            factory = Renderer
        self._dirty = self._full = True
        renderer = factory(self.screen.get_size(), self.language)
        if self._started:
            self._warm_up(renderer)
        return renderer

    def toggle_fullscreen(self) -> None:
        self.fullscreen = not self.fullscreen
        self.screen = self._set_mode()
        self.renderer = self._make_renderer()

    # ------------------------------------------------------------------ threads → inbox
    def _post(self, item: tuple[Any, ...]) -> None:
        """Hand an item to the main loop (any thread)."""
        self.inbox.put(item)
        if self.poll == 0 and not self._wake_posted.is_set():
            self._wake_posted.set()
            try:
                self.pg.event.post(self.pg.event.Event(self.WAKE))
            except Exception:  # noqa: BLE001 - display gone while closing
                pass

    def _notify(self, kind: str, data: Any) -> None:  # paho's thread
        self._post(("link", kind, data))

    def _edge(self, action: str, pressed: bool, at: float) -> None:  # gpiozero's thread
        self._post(("edge", action, pressed, at))

    def _send(self, action: str, **fields: Any) -> str:
        return self.link.press(action, **fields)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> KioskApp:
        if not self._started:
            self._started = True
            # paho's thread must not wait for the GIL behind a whole frame: with
            # Python's default 5 ms it sent a press, or took the answer in, only after
            # the frame being drawn (bench/kiosk.py: p99 press → answer on screen 17 →
            # 13 ms with 50 tables). The kiosk's threads are idle but for these moments.
            if sys.getswitchinterval() > SWITCH_INTERVAL:
                sys.setswitchinterval(SWITCH_INTERVAL)
            self._warm_up(self.renderer)
            if self.finder is not None:
                self._say(self.view.problem)
                self.finder.start()
            else:
                self.link.start()
        return self

    def close(self) -> None:
        self.running = False
        if self.finder is not None:
            self.finder.stop()
        if self.box is not None:
            self.box.close()
            self.box = None
        self.link.stop()
        self.sounds.close()
        self.speaker.close()
        if self.warm_done is not None:
            # what the warm-up froze is the collector's again: a process that goes on
            # (a test worker, a drill's many kiosks) must not keep this one's cycles forever
            gc.unfreeze()

    def __enter__(self) -> KioskApp:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def run(self) -> int:
        """Step until asked to stop (Esc, window closed, SIGTERM/SIGINT). Returns 0."""
        def stop(signum: int, frame: Any) -> None:
            self.running = False
            self._post(("quit",))

        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, stop)
            signal.signal(signal.SIGINT, stop)
        self.start()
        try:
            while self.running:
                self.step(MAX_WAIT)
        finally:
            self.close()
            self.pg.display.quit()
        return 0

    # ------------------------------------------------------------------ the loop
    def step(self, max_wait: float = MAX_WAIT) -> bool:
        """Sleep until something is due (at most ``max_wait`` s), handle what arrived,
        draw a frame if anything changed. Returns whether the app still runs."""
        now = self.clock()
        # while a warm-up is left the loop does not sleep: it looks at what arrived and
        # lays the next moment out (below) instead
        self._wait(0.0 if self._warm is not None else max(0.0, min(max_wait, self._due - now)))
        if self._answer_due is not None:
            self._await_answer()
        now = self.clock()
        if self.controls is not None:
            self._outcomes(self.controls.advance(now), now)
        self._tick(now)
        self._refresh(now)
        if self._dirty or now >= self._draw_due:
            self._sounds(now)
            self._draw(now)
        elif now >= self._cue_due:
            self._sounds(now)
        if self._warm is not None and not self._dirty and self.inbox.empty():
            self._warm_step()
        self._due = self._next_due(now)
        return self.running

    # ------------------------------------------------------------------ warm-up
    def _warm_up(self, renderer: Any) -> None:
        """Lay the screen's moments out off the screen, one a step, while nothing else is
        to do (kiosk/warmup.py): at the start while the link connects, and again after a
        new renderer (size) or language. A table screen only: the wall has no presses."""
        if self.role != "table" or not hasattr(renderer, "warm"):
            self._warm = None
            return
        from kiosk.warmup import moments

        mono = getattr(renderer, "monotonic", self.clock)()
        self._warm = moments(self.view, self.language, self.link.sync.now(), mono, text,
                             state=lambda: self.state)

    def _warm_step(self) -> None:
        """One moment of the warm-up: a whole layout, off the screen. An arriving state
        waits for at most this one (it is drawn in the next step, before the next)."""
        assert self._warm is not None
        view = next(self._warm, None)
        if view is not None:
            self.renderer.warm(view)
            self.warm_slices += 1
            return
        self._warm = None
        self.warm_done = self.clock()
        done = getattr(self.renderer, "warmed_up", None)
        if done is not None:
            done()
        # what the kiosk holds from now on (fonts, modules, the caches) is never garbage:
        # out of the collector's way, a full collection no longer walks it in a press.
        # The young generations only are collected first: a full collection's pause
        # grows with the whole heap (seconds in a process that holds much more than one
        # kiosk: a drill's many screens in a test worker), and what old garbage is
        # frozen with the rest is the start's, once
        gc.collect(1)
        gc.freeze()

    def _wait(self, timeout: float) -> None:
        pg = self.pg
        items: list[tuple[Any, ...]] = []
        if self.poll > 0:
            try:
                items.append(self.inbox.get(timeout=min(timeout, self.poll)) if timeout > 0
                             else self.inbox.get_nowait())
            except queue.Empty:
                pass
            events = pg.event.get()
        else:
            first = pg.event.wait(max(1, round(timeout * 1000))) if timeout > 0 else None
            events = ([first] if first is not None and first.type != pg.NOEVENT else [])
            events += pg.event.get()
            self._wake_posted.clear()
        while True:
            try:
                items.append(self.inbox.get_nowait())
            except queue.Empty:
                break
        for item in items:
            self._item(item)
        for ev in events:
            self._event(ev)

    def _await_answer(self) -> None:
        """The state a press changed is in; take what comes until its answer does (at
        most :data:`ANSWER_GRACE`), so that one frame shows both."""
        while self._answer_due is not None:
            left = self._answer_due - self.clock()
            if left <= 0:
                break
            try:
                item = self.inbox.get(timeout=left)
            except queue.Empty:
                break
            self._item(item)
        self._answer_due = None

    def _item(self, item: tuple[Any, ...]) -> None:
        kind = item[0]
        if kind == "edge":
            _, name, pressed, at = item
            if self.controls is not None:
                self._outcomes(self.controls.edge(name, pressed, at), self.clock())
        elif kind == "link":
            self._link(item[1], item[2])
        elif kind == "quit":
            self.running = False

    def _link(self, kind: str, data: Any) -> None:
        self._dirty = True
        if kind == "state":
            value = self.link.state.get(data)
            if value is None:
                return
            if data == "clock" and not self.link.sync.synced:
                # the anchor is in controller time: before the first sync we would count
                # from our monotonic clock and show ~500,000 hours. "synced" brings it.
                return
            self.state[data] = value
            if data in ("structure", "summary"):
                self._language()
            if self.controls is not None and data == f"table/{self.table}":
                if self._pending and self._answer_due is None:
                    self._answer_due = self.clock() + ANSWER_GRACE
                self.controls.update_table(value)
                due = bool(value.get("hand_done_due"))
                if due and not self._hand_done_due and self.controls.question is None:
                    # the controller's reminder: this table seems to have forgotten it
                    self._feedback(Feedback("info", text("hand_done_due", self.language),
                                            self.clock()))
                self._hand_done_due = due
        elif kind == "synced":
            if "clock" not in self.state and "clock" in self.link.state:
                self.state["clock"] = self.link.state["clock"]
        elif kind == "answer":
            self._answer(data)
        elif kind == "problem":
            self.view.problem = data
            self._say(data)
            if data.kind == "account" and self.finder is not None and self.finder.again():
                self.link.stop(0)  # the finder's next broker brings the next link
        elif kind == "online" and data:
            self.view.problem = None
            self._said = None
        elif kind == "found":  # the finder's broker: the link that connects
            self.view.problem = Problem("looking", str(data))
            self.link = Link(data, table=self.table, notify=self._notify)
            self.link.start()
            log.info("the night's broker %s, prefix %s, account %s", data, data.prefix,
                     data.username)

    def _say(self, problem: Problem | None) -> None:
        """The problem in the log, in the screen's language, once each time it changes."""
        if problem is None or problem == self._said:
            return
        self._said = problem
        (log.info if problem.kind == "looking" else log.warning)(
            "%s", problem_line(problem, self.language))

    def _event(self, ev: Any) -> None:
        pg = self.pg
        if ev.type == pg.QUIT:
            self.running = False
        elif ev.type in (pg.KEYDOWN, pg.KEYUP):
            down = ev.type == pg.KEYDOWN
            if ev.key == pg.K_ESCAPE and down:
                self.running = False
            elif ev.key == pg.K_F11 and down:
                self.toggle_fullscreen()
            else:
                action = KEYS.get(pg.key.name(ev.key))
                if action is not None and self.controls is not None:
                    self._outcomes(self.controls.edge(f"key:{action}", down, self.clock()),
                                   self.clock())
        elif ev.type == pg.WINDOWFOCUSLOST and self.controls is not None:
            # a key held while the window lost focus never sends its key-up
            for name in [n for n in self.controls.inputs.inputs if n.startswith("key:")]:
                self._outcomes(self.controls.edge(name, False, self.clock()), self.clock())
        elif ev.type in (pg.WINDOWEXPOSED, pg.VIDEOEXPOSE):
            self._full = True
            self._dirty = True

    # ------------------------------------------------------------------ presses and answers
    def _outcomes(self, outcomes: list[Outcome], now: float) -> None:
        lang = self.language
        for out in outcomes:
            self._dirty = True
            if out.kind == "sent" and out.cid is not None:
                what = self._label(out)
                key = "sent" if self.link.connected.is_set() else "queued"
                self._feedback(Feedback("sent", text(key, lang, what=what), now))
                self._pending[out.cid] = out
                self._last_cid = out.cid
            elif out.kind == "info":
                self._feedback(Feedback("info", text(out.message, lang), now))
            elif out.kind == "question":
                self._question = Feedback("info", text(out.message, lang, **out.values), now)
                self._feedback(self._question)

    def _in_break(self) -> bool:
        """The clock the screen shows stands in a break (the chip race's buttons, 000 3.17)."""
        cn = clock_now(self.view)
        return cn is not None and bool(cn.level.get("is_break"))

    def _label(self, out: Outcome) -> str:
        if out.action == "bust":
            return text("bust", self.language, seat=out.seat)
        if out.action == "time":
            tab = self.state.get(f"table/{self.table}") or {}
            return text("time_cancel" if tab.get("time_call") else "time", self.language)
        return text(out.action, self.language)

    def _answer(self, data: dict[str, Any]) -> None:
        cid = data.get("id")
        out = self._pending.pop(cid, None) if isinstance(cid, str) else None
        if out is None:
            return
        self._answer_due = None  # in: the frame can be drawn
        now = self.clock()
        if data.get("ok"):
            if cid == self._last_cid:
                msg = wording.message(data, self.language) if data.get("message") \
                    else text("accepted", self.language)
                self._feedback(Feedback("accepted", msg, now))
        else:  # a rejection is always shown, even of an older press
            reason = wording.reason(data, self.language)
            self._feedback(Feedback("rejected", text("rejected", self.language, reason=reason),
                                    now))

    def _feedback(self, fb: Feedback) -> None:
        # how long it stays visible is the renderer's business (Feedback.since)
        self.view.feedback = fb
        self._dirty = True

    # ------------------------------------------------------------------ time passing
    def _tick(self, now: float) -> None:
        self.sounds.tick(now)

    def _language(self) -> None:
        if self.config.language:
            return
        lang = ((self.state.get("structure") or {}).get("language")
                or (self.state.get("summary") or {}).get("language") or "en")
        if lang != self.language:
            self.language = self.view.language = lang
            self._dirty = True
            self._warm_up(self.renderer)  # its words, at their sizes

    def _refresh(self, now: float) -> None:
        v = self.view
        v.now = self.link.sync.now()
        if self.role == "wall":
            # the page follows the controller's clock, so every wall shows the same page
            from kiosk.render import wall_page

            page = wall_page(v.now)
            if page != v.wall_page:
                v.wall_page = page
                self._dirty = True
        online = self.link.connected.is_set()
        if online != v.online:
            v.online = online
            self._dirty = True
        if self.controls is not None:
            if self.controls.question is not None and self.view.feedback is self._question \
                    and self._question is not None and now - self._question.since > 2.0:
                self._question.since = now  # an open question stays on the status line
            hold = self.controls.progress(now)
            if hold != v.hold:
                v.hold = hold
                self._dirty = True
            if self.controls.selected != v.selected_seat:
                v.selected_seat = self.controls.selected
                self._dirty = True
            race, short = self.controls.race, frozenset(self.controls.race_short)
            if race != v.race or short != v.race_short:  # the chip race being entered
                v.race, v.race_short = dict(race), short
                self._dirty = True

    def _sounds(self, now: float) -> None:
        """Level and break chimes, time-call ticks: looked at with every frame (a level
        ends on a second the renderer wakes us for) and on a time call's seconds."""
        if self.link.sync.synced:  # before the first sync view.now is not the controller's
            for cue in self.cues(self.view):
                self.sounds.play(cue)
            if self.speaker.enabled:
                for line in self.sayings(self.view):
                    self.speaker.say(line, self.view.language)
        self.speaker.pump()
        t = self.cues.next_due(self.view)
        self._cue_due = math.inf if t is None else now + t + 0.01

    def _draw(self, now: float) -> None:
        rects = self.renderer.draw(self.screen, self.view)
        if self._full:
            self.pg.display.flip()
            self._full = False
            self.frames += 1
        elif rects:
            self.pg.display.update(rects)
            self.frames += 1
        self.last_rects = list(rects)
        self._dirty = False
        try:
            change = float(self.renderer.next_change(self.view))
        except Exception:  # noqa: BLE001 - a renderer bug must not spin the loop
            log.exception("renderer.next_change failed")
            change = MAX_WAIT
        if not change >= 0:  # NaN
            change = MAX_WAIT
        self._draw_due = now + min(MAX_WAIT, max(MIN_FRAME, change + 0.005))

    def _next_due(self, now: float) -> float:
        due = [self._draw_due, now + MAX_WAIT]
        if self.controls is not None:
            d = self.controls.next_due()
            if d is not None:
                due.append(d)
            if self.view.hold is not None:
                due.append(now + HOLD_FRAME)
        due.append(self._cue_due)
        s = self.sounds.next_due()
        if s is not None:
            due.append(s)
        return min(due)


def settings_of(config: KioskConfig) -> BrokerSettings | None:
    """The kiosk file's broker section (``None`` for ``auto``)."""
    return None if config.auto_broker else config.broker


def main(config_path: str, *, table: int | None, wall: bool, windowed: str | None = None,
         broker: str | None = None, prefix: str | None = None, join: str | None = None) -> int:
    """``floorman kiosk``: load the kiosk file, connect, run until stopped."""
    import sys

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from controller.config import ConfigError
    from kiosk.config import load_kiosk

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = load_kiosk(config_path)
        size = parse_size(windowed) if windowed else None
        auto = cfg.auto_broker and not (broker or os.environ.get("FLOORMAN_BROKER"))
        b = None if auto else Broker.from_env(broker, prefix, settings_of(cfg))
        app = KioskApp(cfg, "wall" if wall else "table", table, size, b, join=join)
    except (ConfigError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    except pygame.error as exc:
        # at boot the display may come up after the unit: systemd tries again (not 1)
        print(f"floorman kiosk: cannot open the screen: {exc}", file=sys.stderr)
        return EXIT_NO_SCREEN
    who = f"table {table}" if table else "wall"
    if b is None:
        log.info("%s screen, broker: auto (the night on the network)", who)
    else:
        log.info("%s screen, broker %s, prefix %s", who, b, b.prefix)
    return app.run()
