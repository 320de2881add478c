"""The controller service: the tournament on MQTT (``floorman controller``).

- :mod:`.core`: the one thread that takes a message, asks the engine, stores the event
  in the log and answers (:class:`~.core.ControllerService`, :func:`~.core.serve`);
- :mod:`.inbound`: what comes in, checked and rate-limited per client, before the engine;
- :mod:`.views`: the retained payloads (clock, tables, seating, moves, results) made from
  the engine's state;
- :mod:`.fanout`: which views a command changed, so only those are published;
- :mod:`.heap`: when the garbage collector may run (between presses, never in one).

It speaks :mod:`controller.wire`, keeps its log with :mod:`controller.log` and hands a
finished tournament to the club database (:mod:`controller.club.intake`).
"""
