"""Matches and seats: a match file checked and created, open seats and joining, keys and addresses,
absence and dropouts, the position a welcome shows."""
