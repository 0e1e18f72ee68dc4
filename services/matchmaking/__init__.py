"""Matchmaking: queue tickets (event-sourced) and the pairing pass that requests matches."""
