"""Game analysis: a calibrated win-probability estimate, post-game turning points and opt-in hints."""
