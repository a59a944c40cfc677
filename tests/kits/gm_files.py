"""The match file the GM tests start from: a Founding Fathers campaign for three."""
FF_WINTER = """\
id: ff-winter
game: founding_fathers
lang: en
gm: gm@example.org
timezone: Europe/Berlin
schedule: {period: 48h, reminders: [12h]}
players:
  - {id: adams, name: John Adams, email: adams@example.org}
  - {id: jay, name: John Jay, email: jay@example.org}
  - {id: king, name: Rufus King, email: king@example.org}
"""
