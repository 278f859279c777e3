"""The rules of Freedom!, one module per part of the rulebook.

Importing this package registers every frame handler with the engine:

* ``setup`` — rule 2; ``administration`` — rules 4.1 and 5; ``opening`` — rule 4.2;
* ``action_phase`` — rule 4.3 (card play, events, AP, triggers);
* ``imperial_actions`` / ``insurgent_actions`` — rule 4.3.2, action by action;
* ``movement`` — rule 4.3.2 movement and the unit limits of rule 4.2; ``combat`` — attacks, raids;
* ``cannons`` — rule 4.4; ``replenishment`` — rule 4.5; ``victory`` — rule 3.
"""

from muster.games.freedom.rules import (  # noqa: F401 - imported for their registrations
    action_phase,
    administration,
    cannons,
    combat,
    imperial_actions,
    insurgent_actions,
    opening,
    replenishment,
    setup,
    victory,
)
