"""kafka-python checksums every record batch it sends or fetches with CRC-32C; without the compiled
``crc32c`` package it falls back to pure Python, which cost the relay about 45 % of its CPU."""

from __future__ import annotations

from kafka.record import util


def test_kafka_python_checksums_with_the_compiled_crc32c() -> None:
    assert util.crc32c_c is not None, "install crc32c (requirements.txt)"
    data = b"arcana event batch" * 100
    assert util.calc_crc32c(memoryview(data)) == util.crc32c_py(data)  # the same checksum, fast
