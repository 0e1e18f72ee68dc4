"""The match service: the hosted games (``libs.games``; Arcana first) played over REST, one event
stream per match (``match-<id>``)."""
