"""What the tests and the benchmarks both drive: a stack of real processes (``stack``), `make run`
itself (``makerun``), a keep-alive HTTP client (``client``) and the crash-and-recovery scenario
(``recovery``). Tests and benchmarks import this package, never each other (import contract in
pyproject.toml)."""
