"""kombu's ``filesystem://`` transport with atomic writes, for the embedded Celery broker.

kombu's own ``Channel._put`` creates the message file in the queue folder and then writes it, while a
worker's ``_get`` may move that file away in between: the worker reads an empty message, its JSON
decoding fails and the worker stops ("Unrecoverable error: JSONDecodeError"); the message is lost.
Here a message is written to a sibling folder and renamed into the queue folder (atomic on one
file system), so a worker only ever sees complete messages; a torn file left by an older writer is
logged and skipped instead of stopping the worker.

Selected in ``libs/celeryapp.py`` by ``broker_transport`` when the broker URL is ``filesystem://``.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from time import monotonic
from typing import Any

from kombu.transport import filesystem
from kombu.transport.virtual import Empty
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

log = logging.getLogger(__name__)


class Channel(filesystem.Channel):
    def _put(self, queue: Any, payload: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        out = Path(self.data_folder_out)
        staging = out.with_name(out.name + ".staging")
        staging.mkdir(parents=True, exist_ok=True)
        tmp = staging / name
        with open(tmp, "wb") as f:
            f.write(str_to_bytes(dumps(payload)))
        os.replace(tmp, out / name)

    def _get(self, queue: Any, timeout: Any = None) -> Any:
        try:
            return super()._get(queue)
        except ValueError:  # a message file that was read before it was complete
            log.error("skipped a torn message file in queue %s", queue)
            raise Empty() from None


class Transport(filesystem.Transport):
    Channel = Channel
