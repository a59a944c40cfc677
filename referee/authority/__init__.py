"""The referee authority: who may do what, and when.

* ``gate/`` — one received mail handled end to end (``gate.intake``), its sender judged, orders taken,
  player and GM commands answered;
* ``matches/`` — a match file checked and created, seats, joining, keys and addresses, absence, dropouts;
* ``talk/`` — table talk, letters, the chronicle;
* here — what the parts share: settings and lookups (``base``), the outgoing-mail queue, replies,
  the wording of every refusal in en + de, deadlines (``schedule``, ``timing``), read-only queries.

The parts are wired into one ``Referee`` by ``referee.app.referee``; the close itself is ``referee.turns``.
"""
