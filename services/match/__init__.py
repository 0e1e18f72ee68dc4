"""The match service: Arcana played over REST, one event stream per match (``match-<id>``)."""
