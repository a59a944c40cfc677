"""Board pictures: a game's SVG drawn to a palette PNG by libvips, sized for a phone."""
