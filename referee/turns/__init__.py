"""A turn from its deadline to its stored result: the close worked out (``compute``), committed
(``commit``), its record's flags, the guard against closing half-empty turns, outages, and a close
worker's batches and drawings."""
