"""How every Kafka client of the bus logs in (relays, consumers, dead letters, cluster probes).

From the environment, so that a Kafka with ACLs (the optional component
``deploy/k8s/components/kafka-acls``: one SCRAM user per service) needs no code change; nothing set
(development, the embedded broker) means a plain connection:

- ``KAFKA_SECURITY_PROTOCOL``: ``PLAINTEXT`` (default), ``SSL``, ``SASL_PLAINTEXT`` or ``SASL_SSL``;
- ``KAFKA_SASL_MECHANISM``: default ``SCRAM-SHA-512``;
- ``KAFKA_SASL_USERNAME`` and ``KAFKA_SASL_PASSWORD`` (or the file named by ``KAFKA_SASL_PASSWORD_FILE``);
- ``KAFKA_SSL_CAFILE``: the CA of the brokers' certificates.
"""

from __future__ import annotations

from typing import Any

from libs import config
from libs.config import InsecureSetting

PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")


def client_options() -> dict[str, Any]:
    """The security options of a Kafka client (empty: a plain connection). Raises
    ``InsecureSetting`` for an unknown protocol, or SASL without a user and password."""
    protocol = config.KAFKA_SECURITY_PROTOCOL.get()
    if protocol not in PROTOCOLS:
        raise InsecureSetting(f"KAFKA_SECURITY_PROTOCOL must be one of {', '.join(PROTOCOLS)}")
    if protocol == "PLAINTEXT":
        return {}
    options: dict[str, Any] = {"security_protocol": protocol}
    if protocol.startswith("SASL_"):
        username, password = config.KAFKA_SASL_USERNAME.get(), config.KAFKA_SASL_PASSWORD.get()
        if not username or not password:
            raise InsecureSetting(f"{protocol} needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD(_FILE)")
        options.update(
            sasl_mechanism=config.KAFKA_SASL_MECHANISM.get(),
            sasl_plain_username=username,
            sasl_plain_password=password,
        )
    cafile = config.KAFKA_SSL_CAFILE.get()
    if cafile:
        options["ssl_cafile"] = cafile
    return options
