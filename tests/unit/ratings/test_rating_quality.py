"""Rating quality: 200 players with a hidden strength play 50 ranked games each through the rating
code; the Spearman rank correlation between rating and strength is reported and is at least 0.8."""

from __future__ import annotations

import random

from services.ratings import domain as d

PLAYERS, GAMES_EACH, SEED = 200, 50, 20261130


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rho with average ranks for ties."""

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5


def simulate(seed: int) -> float:
    """Each round pairs every player with a random other (ratings drive nothing in the pairing, so
    only the rating code sorts them); the winner is drawn from the Elo probability of the hidden
    strength gap. Returns Spearman's rho of final rating vs strength."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(PLAYERS)]
    strength = {p: rng.gauss(1000, 200) for p in ids}
    ratings = {p: d.PlayerRating(p) for p in ids}
    for game in range(GAMES_EACH):
        order = ids[:]
        rng.shuffle(order)
        for i in range(0, PLAYERS, 2):
            a, b = order[i], order[i + 1]
            a_wins = rng.random() < d.expected_score(strength[a], strength[b])
            w, lo = (a, b) if a_wins else (b, a)
            cw, cl = d.rate(d.RankedResult(f"g{game}-{i}", w, lo), ratings[w], ratings[lo])
            ratings[w], ratings[lo] = d.evolve(ratings[w], cw), d.evolve(ratings[lo], cl)
    assert all(r.games == GAMES_EACH for r in ratings.values())
    return spearman([ratings[p].rating for p in ids], [strength[p] for p in ids])


def test_rating_ranks_players_like_their_hidden_strength() -> None:
    rho = simulate(SEED)
    print(f"\nrating quality: {PLAYERS} players x {GAMES_EACH} games, Spearman rho = {rho:.3f}")
    assert rho >= 0.8


def test_spearman_itself() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert abs(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) - 0.8) < 1e-9
