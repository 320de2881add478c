"""The director's console in the browser: ``floorman console`` (docs/console.md).

A small ASGI service (Starlette on uvicorn, Jinja2 pages, server-sent events) on the
controller machine. It holds no tournament logic and no state of its own: it shows the
retained state the controller publishes and sends the director's commands through the
same director protocol as the ``floorman`` command line (:class:`controller.director.Director`).

- :mod:`.auth`: the sign-in password, sessions, CSRF tokens, the backoff after wrong passwords;
- :mod:`.hub`: the one broker connection, shared by every browser, and its live updates;
- :mod:`.actions`: a form → a director command and its arguments;
- :mod:`.pages`: what the pages show, made from the state;
- :mod:`.guard`: the connections: a request's head in time, how many one address and all hold;
- :mod:`.app`: the routes, the ``Host`` check; :func:`.app.serve` runs it.
"""
