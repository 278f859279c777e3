"""The simulation lab: bot-vs-bot games, round-robin arenas with ratings, and balance reports."""
