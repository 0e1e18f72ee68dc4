"""``harness/suite_cpu.py``: a command's CPU by kind of process, sampled from /proc."""

from __future__ import annotations

import subprocess
import sys

from harness.suite_cpu import KINDS, Sampler, kind_of

# One second of CPU, named in its command line so that no other process of the machine counts as it.
BUSY = (
    "# suite-cpu-probe\nimport time\nend = time.process_time() + 1.0\nwhile time.process_time() < end: pass\n"
)


def test_command_lines_are_told_apart_by_kind() -> None:
    assert kind_of("python -u -c import sys;exec(eval(sys.stdin.readline()))") == "pytest worker"
    assert kind_of("python -m gunicorn services.match.waits_wsgi:app --worker-class gevent") == "waits"
    assert kind_of("python -m gunicorn services.wsgi:app --worker-class gthread") == "web"
    assert kind_of("python -m celery -A services.worker beat --loglevel INFO") == "celery-beat"
    assert kind_of("python -m celery -A services.worker worker --concurrency 2") == "celery-worker"
    assert kind_of("python -m libs.kit.consume economy match") == "consumers"
    assert kind_of("/usr/lib/chromium/chromium --type=renderer") == "chromium"
    assert kind_of("/bin/sleep 5") == "other"


def test_a_process_that_starts_and_ends_between_the_first_and_last_sample_counts() -> None:
    sampler = Sampler((("suite-cpu-probe", "probe"), *KINDS))
    sampler.start()
    subprocess.run([sys.executable, "-c", BUSY], check=True)
    spent = sampler.stop()
    assert 0.5 <= spent.get("probe", 0.0) <= 1.5, spent
