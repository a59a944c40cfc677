"""What a game may import (``contract``, its drawing helpers and canonical JSON), how games are found
(``registry``) and the scripted random player every game gets. The bottom layer: imports nothing else of the referee."""
