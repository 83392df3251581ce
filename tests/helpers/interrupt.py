"""Children that take Ctrl-C the way a terminal's foreground process does.

A shell that runs a job in the background without job control starts it with SIGINT ignored,
and an ignored signal stays ignored across ``exec`` (what ``nohup`` relies on). Python then does
not turn SIGINT into ``KeyboardInterrupt``, and a Ctrl-C test started from such a job would test
its launcher rather than webgrip. ``preexec_fn=sigint_as_on_a_terminal`` puts the default back in
the child before it starts, whatever the test run inherited.
"""

from __future__ import annotations

import signal


def sigint_as_on_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
