"""Golden tests: exact opening events of a seeded match, and an exact position after a scripted game."""

from __future__ import annotations

from libs.games.arcana import STARTER_DECK, daily_arcana, fold, start, state_hash, view

from .support import P1, P2, Game, setup


def test_seeded_opening_is_fixed_forever() -> None:
    events = start(
        {
            "match_id": "g1",
            "seed": 2026,
            "date": "2026-11-29",
            "players": [{"id": "ann", "deck": list(STARTER_DECK)}, {"id": "bob", "deck": list(STARTER_DECK)}],
        }
    )
    started = events[0]
    assert started["first"] == "ann"
    assert started["arcana"] == ["chariot", "lovers", "strength", "temperance", "death", "judgement"]
    assert daily_arcana("2026-11-29") == "death"
    assert started["players"][0]["instances"][:5] == ["c24", "c38", "c29", "c35", "c18"]
    assert events[1] == {
        "type": "DeckShuffled",
        "player_id": "ann",
        "order": [
            "c1",
            "c30",
            "c5",
            "c15",
            "c11",
            "c18",
            "c38",
            "c4",
            "c28",
            "c12",
            "c39",
            "c24",
            "c7",
            "c6",
            "c29",
            "c23",
            "c9",
            "c25",
            "c36",
            "c35",
        ],
    }
    assert events[3] == {
        "type": "ArcanaRevealed",
        "arcana": "chariot",
        "phase": "early",
        "index": 0,
        "round": 1,
    }
    assert [(e["player_id"], e["card_id"]) for e in events[4:]] == [
        ("ann", "frost_ogre"),
        ("ann", "pack_howler"),
        ("ann", "ridge_bear"),
        ("ann", "tusked_charger"),
        ("bob", "dune_nomad"),
        ("bob", "mercenary"),
        ("bob", "wolf_pup"),
        ("bob", "ember_dart"),
        ("bob", "temple_acolyte"),
    ]


def test_a_scripted_game_reaches_an_exact_position() -> None:
    g = Game(
        setup(
            d1=["squire", "den_mother", "wolf_pup", "ember_dart", "blood_bat"],
            d2=["shield_bearer", "pebble_giantling", "ash_fox", "hunter_s_shot", "moss_creeper"],
        )
    )
    g.play(P1, "squire", position=0)
    g.end_turn()
    g.play(P2, "ash_fox", position=0)
    g.attack(P2, g.unit(P2, "ash_fox").id, g.unit(P1, "squire").id)  # Rush; both die
    g.end_turn()
    g.play(P1, "den_mother", position=0)
    g.end_turn()
    g.play(P2, "shield_bearer", position=0)
    g.play(P2, "hunter_s_shot", target=g.unit(P1, "den_mother").id)
    g.end_turn()  # round 3: the magician makes spells 1 cheaper
    g.play(P1, "wolf_pup", position=1)
    g.play(P1, "ember_dart", target=g.unit(P2, "shield_bearer").id)
    g.play(P1, "blood_bat", position=0)
    g.attack(P1, g.unit(P1, "den_mother").id, "hero")
    assert [g.state.cards[c].id for c in g.player(P1).hand] == ["hedge_knight", "hedge_knight"]
    bat, mother, pup = (g.unit(P1, c).id for c in ("blood_bat", "den_mother", "wolf_pup"))
    assert view(g.state, P1) == {
        "match_id": "m1",
        "phase": "playing",
        "turn": 5,
        "round": 3,
        "active_player": P1,
        "winner": None,
        "reason": None,
        "arcana": {
            "current": "magician",
            "phase": "early",
            "rounds_left": 2,
            "revealed": ["chariot", "magician"],
        },
        "you": {
            "id": P1,
            "hero_health": 30,
            "mana": 0,
            "max_mana": 3,
            "deck_count": 13,
            "hand_count": 2,
            "timeouts": 0,
            "mulligan_done": True,
            "hand": [{"id": knight, "card_id": "hedge_knight", "cost": 2} for knight in g.player(P1).hand],
            "board": [
                {
                    "id": bat,
                    "card_id": "blood_bat",
                    "attack": 5,
                    "health": 2,
                    "max_health": 2,
                    "keyword": "lifesteal",
                    "ability": None,
                    "ward": False,
                    "can_attack": False,
                },
                {
                    "id": mother,
                    "card_id": "den_mother",
                    "attack": 2,
                    "health": 1,
                    "max_health": 3,
                    "keyword": None,
                    "ability": "beast_aura",
                    "ward": False,
                    "can_attack": False,
                },
                {
                    "id": pup,
                    "card_id": "wolf_pup",
                    "attack": 3,
                    "health": 2,
                    "max_health": 2,
                    "keyword": None,
                    "ability": None,
                    "ward": False,
                    "can_attack": False,
                },
            ],
        },
        "opponent": {
            "id": P2,
            "hero_health": 28,
            "mana": 0,
            "max_mana": 2,
            "deck_count": 13,
            "hand_count": 4,
            "timeouts": 0,
            "mulligan_done": True,
            "board": [],
        },
    }
    assert fold(g.events) == g.state
    assert state_hash(fold(g.events)) == state_hash(g.state)
