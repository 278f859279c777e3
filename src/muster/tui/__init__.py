"""Playing Freedom! in the terminal: rich rendering (:mod:`.render`), help texts (:mod:`.texts`)
and the interactive session (:mod:`.session`)."""
