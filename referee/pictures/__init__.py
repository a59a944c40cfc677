"""Board pictures: a game's SVG drawn to PNG (text as outlines, plain shapes by libvips)."""
