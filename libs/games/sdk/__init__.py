"""The games' SDK: what every game of ``libs/games/`` builds on, below all of them and importing none.
Pure: standard library only (an import contract keeps it so).

- ``plumbing``: a setup's common fields checked, ``evolve`` as a table of appliers, ``fold``;
- ``rng``: deterministic random streams, one per purpose, from a match's seed;
- ``facts``: ``Fact``, the base of a game's typed event declarations;
- ``datafile``: a game's data file (JSON rows) read, validated and keyed by id;
- ``constants``: values several games share (card rarities).

The game interface itself (``Game``, its refusals, the snapshot codec, command shapes, the registry)
is ``libs.games``; a game imports only the SDK, the interface and the standard library.
"""
