"""The accounts service: player accounts, credentials and log-in tokens (publishes PlayerRegistered)."""
