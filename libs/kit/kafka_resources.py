"""Every service's Kafka resources for Strimzi, from its own declarations: ``python -m
libs.kit.kafka_resources FOLDER`` (``make kafka-acls``) writes the users and ACLs and the client
patches (``libs.kit.acls``) and the topics (``libs.kit.kafka_topics``) into the component FOLDER."""

from __future__ import annotations

import sys
from pathlib import Path

from libs.kit import acls, kafka_topics
from libs.kit.registry import discover


def main(argv: list[str] | None = None) -> None:
    """Write the users, the client patches and the topics into the folder given (the component)."""
    folder = Path((argv if argv is not None else sys.argv[1:])[0])
    services = discover()
    (folder / "kafka-users.yaml").write_text(acls.render(services))
    (folder / "client-patches.yaml").write_text(acls.render_patches(services))
    (folder / "kafka-topics.yaml").write_text(kafka_topics.render(services))


if __name__ == "__main__":
    main()
