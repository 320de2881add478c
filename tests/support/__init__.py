"""The test harness: what the integration, end-to-end, drill and deployment tests and the
benchmarks (bench/) share. Import from the module that holds a name:

============  ===============================================================================
module        what it holds
============  ===============================================================================
paths         ``ROOT`` (the checkout), the shipped files the tests start from
waiting       :func:`wait_for`, the one poll loop (a sleep or a kiosk's loop step between looks)
headless      SDL's dummy drivers, for pygame without a screen or sound card
broker        :class:`Mosquitto`: controller.broker.local's Mosquitto, stopped and started
              again for an outage
secure        :class:`SecureBroker`: Mosquitto with the shipped drop-in, accounts, ACL and TLS
controller    :class:`ControllerProcess` (``python -m controller controller`` as systemd runs
              it), :func:`floorman` (the director's command line), :func:`director`,
              :func:`wait_up`, :func:`start_tournament`
mqtt          :class:`Probe` (a raw client that records what it gets), :func:`raw_client`,
              :func:`retained_state` (what a new screen sees), :class:`SelectLoop` (many
              clients on one ``select`` loop)
eventlog      :func:`read_log`: a controller's event log, read-only
settings      :func:`make_settings`: small tournament settings for the engine tests
kiosks        :class:`Floor`: headless kiosk apps with mock-pin button boxes (e2e)
drill         the drills' dealers, audit and figures (tests/drills)
hostile       the hostile-client drill's room, presses and flooder (bench/flood.py too)
install       running scripts/install.sh into a throwaway root (tests/deploy)
longest_first scripts/test's plugin: the files that took longest (tests/durations.txt) first
============  ===============================================================================

``tests`` is a package and pytest puts the checkout on ``sys.path`` (``pythonpath`` in
pyproject.toml), so every test module says ``from tests.support.waiting import wait_for``;
a benchmark run as ``python bench/controller.py`` puts the checkout on ``sys.path`` first.
The fixtures over these live in the conftest.py files (tests/conftest.py: the broker, a
topic prefix and the controller process for every folder).
"""
