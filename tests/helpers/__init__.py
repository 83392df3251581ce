"""The test harness: servers, configs and fixture builders, each defined once.

``tests/conftest.py`` holds only fixtures and hooks; tests import what they need from here
(``from helpers.loopback import loopback_config``; ``pythonpath = ["tests"]`` in
``pyproject.toml`` puts ``tests/`` on the path, scripts add it themselves):

- ``loopback``: loopback-opened configs, ``wait_until``, and ``RawServer`` (a raw-socket
  server whose replies are written by hand) with ``http_response``/``reply``
- ``siteserver``: a threaded loopback web site with routes and recorded requests
- ``proxy_server``: a recording HTTP CONNECT / SOCKS5 proxy
- ``chaos_server`` and ``chaos_soak``: the hostile server (one misbehaviour per path) and the
  soak harness behind ``benches/soak.py``
- ``render``: the headless-browser checks and pages of the render tests
- ``ray_sites``: redis-server, arrival-logging sites and the process behind a socket, for the
  distributed-fetch tests
- ``search``: recorded search-provider answers and a client pointed at a stand-in
- ``openai_strict``: OpenAI's strict-mode rules as a checker
- ``bench``: the opt-in benchmarks' machinery (``tests/bench``)
"""
