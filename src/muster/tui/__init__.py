"""Playing in the terminal: the interactive session (:mod:`.session`) and the terminal part each game brings
(:mod:`.part`: its interface, and a plain stand-in for a game without one)."""
