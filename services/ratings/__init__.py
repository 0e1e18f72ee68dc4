"""Ratings: the ranked ladder (Elo rating, tiers with a floor, history, leaderboard)."""
