"""The economy service: wallet, collection, provably fair packs, crafting, decks."""
