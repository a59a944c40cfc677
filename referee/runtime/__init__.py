"""How the referee's processes behave: the garbage-collection policy and the named crash points
the kill tests stop at."""
