"""Table talk, letters and the chronicle: relayed at once, archived, and heading the next report."""
