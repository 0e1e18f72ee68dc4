"""Under gevent (the long-poll process, services/match/waits_wsgi.py) the notifier's listener is a
greenlet: a NOTIFY wakes the waiting greenlet of its match at once, not at its next presence
touch, and the other greenlets keep running meanwhile."""

from __future__ import annotations

import subprocess
import sys

import pytest

from libs.config import PROJECT_ROOT

SCRIPT = """
from gevent import monkey; monkey.patch_all()
import sys, time, uuid, gevent, psycopg
from services.match.notify import MatchNotifier
url, channel = sys.argv[1], "t_" + uuid.uuid4().hex[:8] + "_match_events"
n = MatchNotifier(url, channel)
n.wait("m", 0, 0.01)
deadline = time.monotonic() + 30
while not n._listening:
    assert time.monotonic() < deadline, "never listened"
    gevent.sleep(0.05)
ticks = []
def ticker():
    while True:
        ticks.append(time.monotonic()); gevent.sleep(0.01)
gevent.spawn(ticker)
waiter = gevent.spawn(n.wait, "m", 3, 20.0)
gevent.sleep(0.5)
with psycopg.connect(url, autocommit=True) as c:
    c.execute("SELECT pg_notify(%s, %s)", (channel, "m:4"))
started = time.monotonic()
woken = waiter.get(timeout=20)
print(woken, round(time.monotonic() - started, 3), len(ticks))
"""


def test_a_notify_wakes_its_waiting_greenlet_at_once_and_others_keep_running(postgres_url: str) -> None:
    pytest.importorskip("gevent")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, postgres_url],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    woken, seconds, ticks = done.stdout.split()
    print(f"woken after {seconds} s")
    assert woken == "True"  # announced: a wait that ran out while listening returns False
    assert int(ticks) > 20  # the other greenlet ran while the listener waited
